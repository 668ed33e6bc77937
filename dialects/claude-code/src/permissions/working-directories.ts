import { realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'

/** Whether `path` is `dir` or inside it. */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Whether a path lies in one of the session's working directories (the cwd and `additionalDirectories`). */
export function inWorkingDirectories(path: string, directories: readonly string[]): boolean {
  const candidates = [path, resolvedThroughLinks(path)]
  return candidates.every((candidate) => directories.some((dir) => isInside(candidate, dir)))
}

/**
 * The path with symbolic links resolved, as far as it exists: a link out of the workspace counts as where it points.
 * A path not yet created resolves through its nearest existing parent.
 */
export function resolvedThroughLinks(path: string): string {
  const absolute = resolve(path)
  let existing = absolute
  let rest = ''
  for (;;) {
    try {
      const real = realpathSync(existing)
      return rest === '' ? real : resolve(real, rest)
    } catch {
      const parent = dirname(existing)
      if (parent === existing) return absolute
      rest = rest === '' ? relative(parent, existing) : `${relative(parent, existing)}/${rest}`
      existing = parent
    }
  }
}

/** The working directories as Claude Code lists them in a message: `'a', 'b'`. */
export function listDirectories(directories: readonly string[]): string {
  return directories.map((dir) => `'${dir}'`).join(', ')
}
