import { executableName } from './executable-name.js'
import { literalCommands } from './parse-command-line.js'
import { shellWrapperScript } from './shell-wrapper.js'

/** Which of Codex's dangerous-command rules matched: a forced `rm`, or another (a wrapper nested too deep). */
export type DangerousCommandMatch = 'forcedRm' | 'other'

/** Codex's `MAX_DANGEROUS_COMMAND_WRAPPER_DEPTH`: past it, a command counts as dangerous. */
const MAX_WRAPPER_DEPTH = 8

/**
 * Codex's `dangerous_command_match` (`codex-rs/shell-command/src/command_safety/is_dangerous_command.rs`, the
 * version Codex 0.169.0 runs, checked against it): `rm` with `-f` (alone or in a group such as `-rf`) or `--force`
 * before any `--`, under `sudo`, `env [-i] [NAME=VALUE…] [--]` or a `trap` action, and any literal command inside a
 * `bash|zsh|sh -c|-lc` script, control flow and substitutions included. `git reset`, `git rm`, `rm -r` and
 * `sudo -u root rm -f` are not dangerous to Codex 0.169.0.
 */
export function dangerousCommandMatch(argv: readonly string[]): DangerousCommandMatch | undefined {
  return matchAtDepth(argv, 0)
}

export function isDangerousCommand(argv: readonly string[]): boolean {
  return dangerousCommandMatch(argv) !== undefined
}

/** `dangerousCommandMatch` of the shell tool's `bash -c <line>`: every literal command of the line is checked. */
export function dangerousCommandLineMatch(commandLine: string): DangerousCommandMatch | undefined {
  return matchAtDepth(['bash', '-c', commandLine], 0)
}

export function isDangerousCommandLine(commandLine: string): boolean {
  return dangerousCommandLineMatch(commandLine) !== undefined
}

function matchAtDepth(argv: readonly string[], depth: number): DangerousCommandMatch | undefined {
  if (depth > MAX_WRAPPER_DEPTH) return 'other'
  const direct = matchProgram(argv, depth)
  if (direct !== undefined) return direct
  const script = shellWrapperScript(argv)
  if (script === undefined) return undefined
  for (const command of literalCommands(script) ?? []) {
    const nested = matchAtDepth(command, depth + 1)
    if (nested !== undefined) return nested
  }
  return undefined
}

function matchProgram(argv: readonly string[], depth: number): DangerousCommandMatch | undefined {
  const program = argv[0] === undefined ? undefined : executableName(argv[0])
  switch (program) {
    case 'rm':
      return forcesRm(argv.slice(1)) ? 'forcedRm' : undefined
    case 'sudo':
      return matchAtDepth(argv.slice(1), depth + 1)
    case 'env':
      return matchAtDepth(argv.slice(envCommandIndex(argv)), depth + 1)
    case 'trap': {
      const action = argv[argv[1] === '--' ? 2 : 1]
      if (action === undefined || action.startsWith('-')) return undefined
      return matchAtDepth(['sh', '-c', action], depth + 1)
    }
    default:
      return undefined
  }
}

function forcesRm(args: readonly string[]): boolean {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).some(
    (arg) => arg === '--force' || (arg.startsWith('-') && !arg.startsWith('--') && arg.includes('f')),
  )
}

/** Where the command `env` runs starts: after `-i`, `--ignore-environment`, `NAME=VALUE` and one `--`. */
function envCommandIndex(argv: readonly string[]): number {
  let index = 1
  for (; index < argv.length; index++) {
    const arg = argv[index] as string
    if (arg === '--') return index + 1
    const equals = arg.indexOf('=')
    const assignment = equals > 0 && !arg.startsWith('-')
    if (arg !== '-i' && arg !== '--ignore-environment' && !assignment) break
  }
  return index
}
