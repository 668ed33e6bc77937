/**
 * Codex's `extract_bash_command` (`codex-rs/shell-command/src/bash.rs`) with `detect_shell_type`
 * (`shell_detect.rs`): the names are exact, so that a file in the workspace called `bash` is not taken for the shell.
 */
const POSIX_SHELLS = new Set([
  'bash',
  '/bin/bash',
  '/usr/bin/bash',
  '/usr/local/bin/bash',
  '/opt/homebrew/bin/bash',
  'zsh',
  '/bin/zsh',
  '/usr/bin/zsh',
  '/usr/local/bin/zsh',
  '/opt/homebrew/bin/zsh',
  'sh',
  '/bin/sh',
  '/usr/bin/sh',
])

/** The script of `[shell, '-c' | '-lc', script]` with shell one of bash, zsh or sh; `undefined` for any other argv. */
export function shellWrapperScript(argv: readonly string[]): string | undefined {
  if (argv.length !== 3) return undefined
  const [shell, flag, script] = argv as [string, string, string]
  if ((flag !== '-c' && flag !== '-lc') || !POSIX_SHELLS.has(shell)) return undefined
  return script
}
