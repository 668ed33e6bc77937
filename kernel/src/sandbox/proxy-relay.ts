/**
 * The first process of a confined sandbox whose network is a proxy on the host: it listens on the sandbox's own
 * loopback and relays every connection to the proxy's unix socket (bound in from the host), starts the command with
 * `HTTP_PROXY` and friends pointing at it, and exits as the command does. Plain Node run with `-e`, so it needs no
 * file of its own on the path (the kernel may run from its sources or from `dist/`): argv is
 * `<socket path> <port> <file> <args…>`. As the namespace's init it must forward the signals it is sent.
 */
export const PROXY_RELAY_SCRIPT = `
const net = require('node:net')
const { spawn } = require('node:child_process')
const [socketPath, port, file, ...args] = process.argv.slice(1)
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath)
  client.pipe(upstream)
  upstream.pipe(client)
  client.on('error', () => upstream.destroy())
  upstream.on('error', () => client.destroy())
})
server.on('error', (error) => {
  process.stderr.write('sandbox network relay: ' + error.message + '\\n')
  process.exit(126)
})
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(file, args, { stdio: 'inherit' })
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    process.stderr.write(file + ': ' + error.message + '\\n')
    process.exit(127)
  })
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (require('node:os').constants.signals[signal] ?? 1))
  })
})
`

/** The loopback port the relay listens on inside the sandbox (the sandbox has a network namespace of its own). */
export const PROXY_RELAY_PORT = 3128

const NO_PROXY = 'localhost,127.0.0.1,::1,169.254.0.0/16,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16'

/** The proxy variables a confined command gets, spelled the ways tools read them. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_RELAY_PORT}`
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    // The sandbox's own loopback and private ranges go direct (as Claude Code's sandbox sets it): the proxy is for
    // the outside world, and inside a network namespace of its own there is nothing else to reach.
    NO_PROXY: NO_PROXY,
    no_proxy: NO_PROXY,
  }
}
