/**
 * The last component of a program path, as Rust's `Path::file_name` gives it (Codex's `executable_name_lookup_key` on
 * Linux): `/bin/rm` and `rm/` give `rm`; `""`, `/`, `.` and `..` give `undefined`.
 */
export function executableName(program: string): string | undefined {
  const name = program.replace(/\/+$/, '').split('/').at(-1)
  if (name === undefined || name === '' || name === '.' || name === '..') return undefined
  return name
}
