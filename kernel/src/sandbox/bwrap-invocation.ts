import { commandLine } from '../process/command-line.js'
import type { ProcessRunOptions } from '../process-runner.js'
import { PROXY_RELAY_PORT, PROXY_RELAY_SCRIPT, proxyEnvironment } from './proxy-relay.js'

export interface BwrapInvocationOptions {
  bwrap: string
  /** From `bwrapLayout`. */
  layout: readonly string[]
  /** The command may use the network (itself, or through `proxy`). */
  networkAccess: boolean
  /** The network only through this proxy on the host: a relay inside the sandbox starts the command. */
  proxy?: { socketPath: string } | undefined
  run: ProcessRunOptions
}

/**
 * `run` as a bubblewrap command: the same argv (`<shell> -c <line>` or the executable and its args) after the layout,
 * started in the run's cwd; every other option (env, stdin, timeout, signal, output) passes through.
 */
export function bwrapInvocation(options: BwrapInvocationOptions): ProcessRunOptions {
  const { shell: _shell, ...run } = options.run
  const { file, args } = commandLine(options.run)
  const proxy = options.networkAccess ? options.proxy : undefined
  const command =
    proxy === undefined
      ? [file, ...args]
      : [process.execPath, '-e', PROXY_RELAY_SCRIPT, proxy.socketPath, String(PROXY_RELAY_PORT), file, ...args]
  // Codex tells the command (and the tools it starts) when the network is off.
  const env =
    proxy !== undefined
      ? { ...run.env, ...proxyEnvironment() }
      : options.networkAccess
        ? run.env
        : { ...run.env, CODEX_SANDBOX_NETWORK_DISABLED: '1' }
  return { ...run, command: options.bwrap, args: [...options.layout, '--chdir', run.cwd, '--', ...command], env }
}
