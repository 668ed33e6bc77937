import { commandLine } from '../process/command-line.js'
import type { ProcessRunOptions } from '../process-runner.js'

export interface BwrapInvocationOptions {
  bwrap: string
  /** From `bwrapLayout`. */
  layout: readonly string[]
  networkAccess: boolean
  run: ProcessRunOptions
}

/**
 * `run` as a bubblewrap command: the same argv (`<shell> -c <line>` or the executable and its args) after the layout,
 * started in the run's cwd; every other option (env, stdin, timeout, signal, output) passes through.
 */
export function bwrapInvocation(options: BwrapInvocationOptions): ProcessRunOptions {
  const { shell: _shell, ...run } = options.run
  const { file, args } = commandLine(options.run)
  return {
    ...run,
    command: options.bwrap,
    args: [...options.layout, '--chdir', run.cwd, '--', file, ...args],
    // Codex tells the command (and the tools it starts) that the network is off.
    env: options.networkAccess ? run.env : { ...run.env, CODEX_SANDBOX_NETWORK_DISABLED: '1' },
  }
}
