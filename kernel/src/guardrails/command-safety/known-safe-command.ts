import { executableName } from './executable-name.js'
import { plainCommands } from './parse-command-line.js'
import { shellWrapperScript } from './shell-wrapper.js'

/**
 * Codex's `is_known_safe_command` (`codex-rs/shell-command/src/command_safety/is_safe_command.rs`) for Linux, in its
 * last form before Codex removed the allowlist ("Retire the untrusted approval policy", openai/codex `942af8447b`):
 * a read-only command from a short list, or `bash|zsh|sh -c|-lc <script>` whose plain segments all are. Codex 0.169.0
 * no longer has it: under `untrusted` it asks before every command no rule allows, `ls` included.
 *
 * - `cat cd cut echo expr false grep head id ls nl paste pwd rev seq stat tail tr true uname uniq wc which whoami`,
 *   and `numfmt tac` (Linux), by bare name only: `./cat` or `/bin/cat` may be another program.
 * - `base64` without `-o`, `-oFILE`, `--output`, `--output=FILE`.
 * - `find` without `-exec -execdir -ok -okdir -delete -fls -fprint -fprint0 -fprintf`.
 * - `rg` without `--pre`, `--hostname-bin` (also `=VALUE`), `--search-zip`, `-z`.
 * - `sed -n N` or `sed -n N,M` followed by `p`, with at most one more argument.
 * - No `git` command: git runs programs the repository configures (`core.fsmonitor`, pagers, diff drivers).
 */
export function isKnownSafeCommand(argv: readonly string[]): boolean {
  const command = argv.map((arg) => (arg === 'zsh' ? 'bash' : arg))
  if (isSafeToRun(command)) return true
  const script = shellWrapperScript(command)
  if (script === undefined) return false
  const segments = plainCommands(script)
  return segments !== undefined && segments.length > 0 && segments.every(isSafeToRun)
}

/**
 * A command line for the shell tool (`bash -c <line>`) is known safe when it is plain (`plainCommands`) with at least
 * one segment and every segment is `isKnownSafeCommand`, as Codex judged each segment of a `bash -lc` script.
 */
export function isKnownSafeCommandLine(commandLine: string): boolean {
  const segments = plainCommands(commandLine)
  return segments !== undefined && segments.length > 0 && segments.every(isKnownSafeCommand)
}

const READ_ONLY = new Set([
  'cat',
  'cd',
  'cut',
  'echo',
  'expr',
  'false',
  'grep',
  'head',
  'id',
  'ls',
  'nl',
  'paste',
  'pwd',
  'rev',
  'seq',
  'stat',
  'tail',
  'tr',
  'true',
  'uname',
  'uniq',
  'wc',
  'which',
  'whoami',
  'numfmt',
  'tac',
])
const FIND_UNSAFE = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf'])
const RG_UNSAFE_WITH_VALUE = ['--pre', '--hostname-bin']
const RG_UNSAFE = new Set(['--search-zip', '-z'])
const SED_PRINT = /^(\d+,)?\d+p$/

/** Codex's `is_safe_to_call_with_exec`: one command run as it is, without a shell. */
function isSafeToRun(command: readonly string[]): boolean {
  const [program, ...args] = command
  if (program === undefined || program.includes('/')) return false
  const name = executableName(program)
  if (name === undefined) return false
  if (READ_ONLY.has(name)) return true
  switch (name) {
    case 'base64':
      return !args.some((arg) => arg === '--output' || arg.startsWith('--output=') || arg.startsWith('-o'))
    case 'find':
      return !command.some((arg) => FIND_UNSAFE.has(arg))
    case 'rg':
      return !command.some(
        (arg) => RG_UNSAFE.has(arg) || RG_UNSAFE_WITH_VALUE.some((option) => arg === option || arg.startsWith(`${option}=`)),
      )
    case 'sed':
      return command.length <= 4 && args[0] === '-n' && SED_PRINT.test(args[1] ?? '')
    default:
      return false
  }
}
