import { mkdtempSync, rmSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What the proxy answers for a host it does not let through (sandbox-runtime's and Claude Code's words). */
export const NETWORK_BLOCKED = 'Connection blocked by network allowlist'
const BLOCKED_MARK = 'blocked-by-allowlist'

export interface FilteringProxyOptions {
  /** Whether a connection to `host:port` may go through (host lower-cased, without brackets). */
  allows(host: string, port: number): boolean
  /** Told of every connection it refused. */
  onBlocked?(host: string, port: number): void
}

/** An HTTP proxy on a unix socket of its own, for a confined sandbox's network (`SandboxConfinement.proxy`). */
export interface FilteringProxy {
  readonly socketPath: string
  close(): Promise<void>
}

/**
 * Starts an HTTP proxy (plain requests and `CONNECT` tunnels) that lets through only the hosts `allows` names and
 * answers the rest `403` with `Connection blocked by network allowlist`. It listens on a unix socket in a private
 * folder: a sandbox without a network of its own reaches it only through the socket bound into its view.
 */
export async function startFilteringProxy(options: FilteringProxyOptions): Promise<FilteringProxy> {
  // node:http (a dozen built-in modules) loads with the first proxy, not with every kernel.
  const { createServer, request } = await import('node:http')
  const dir = mkdtempSync(join(tmpdir(), 'harness-proxy-'))
  const socketPath = join(dir, 'proxy.sock')
  const sockets = new Set<Socket>()
  const server = createServer((incoming, response) => forward(incoming, response, options, request))
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => tunnel(request, client, head, options))
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => resolve())
  })
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}

function forward(
  request: IncomingMessage,
  response: ServerResponse,
  options: FilteringProxyOptions,
  httpRequest: typeof import('node:http').request,
): void {
  let target: URL
  try {
    target = new URL(request.url ?? '')
  } catch {
    response.writeHead(400, { 'Content-Type': 'text/plain' }).end('a proxy request needs an absolute URL\n')
    return
  }
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80))
  if (target.protocol !== 'http:' || !options.allows(host, port)) {
    options.onBlocked?.(host, port)
    response.writeHead(403, { 'Content-Type': 'text/plain', 'X-Proxy-Error': BLOCKED_MARK }).end(`${NETWORK_BLOCKED}\n`)
    return
  }
  const upstream = httpRequest({ host, port, method: request.method, path: `${target.pathname}${target.search}`, headers: request.headers })
  upstream.on('response', (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(response)
  })
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'text/plain' })
    response.end(`${error.message}\n`)
  })
  request.pipe(upstream)
}

function tunnel(request: IncomingMessage, client: Socket, head: Buffer, options: FilteringProxyOptions): void {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(request.url ?? '')
  const host = match?.[1]?.toLowerCase()
  const port = Number(match?.[2])
  client.on('error', () => client.destroy())
  if (host === undefined || !options.allows(host, port)) {
    options.onBlocked?.(host ?? String(request.url), port)
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nX-Proxy-Error: ${BLOCKED_MARK}\r\n\r\n${NETWORK_BLOCKED}`)
    return
  }
  const upstream = connect(port, host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    if (head.length > 0) upstream.write(head)
    upstream.pipe(client)
    client.pipe(upstream)
  })
  upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
  client.on('close', () => upstream.destroy())
}
