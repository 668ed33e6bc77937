import { isAbsolute, relative } from 'node:path'
import { resolveThroughLinks } from '@harness-kernel/kernel'

/** Whether `path` is `dir` or inside it. */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** Whether a path lies in one of the session's working directories (the cwd and `additionalDirectories`). */
export function inWorkingDirectories(path: string, directories: readonly string[]): boolean {
  // A link out of the working directories counts as where it points (a path not yet made, through its parents).
  const candidates = [path, resolveThroughLinks(path)]
  return candidates.every((candidate) => directories.some((dir) => isInside(candidate, dir)))
}

/** The working directories as Claude Code lists them in a message: `'a', 'b'`. */
export function listDirectories(directories: readonly string[]): string {
  return directories.map((dir) => `'${dir}'`).join(', ')
}
