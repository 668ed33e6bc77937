import { realpathSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'
import { PROTECTED_NAMES } from '../guardrails/writable-roots.js'

/**
 * The protected names (`.git`, `.agents`, `.codex`, `.aws`) at the top of each writable root that exist, resolved
 * (a `.codex` linking to `./decoy` protects `decoy`), for re-binding read-only. Only those inside a writable root:
 * the rest is read-only already.
 *
 * Two gaps against Codex. An absent name stays creatable: Codex masks it, but bubblewrap needs a mount point for that,
 * created in the host's directory, where it would stay after the command (removing it from outside would unmount it
 * in every sandbox still using it). And a name that is a symbolic link can be replaced (its target stays read-only).
 */
export function protectedPaths(roots: readonly string[]): string[] {
  const paths = new Set<string>()
  for (const root of roots) {
    for (const name of PROTECTED_NAMES) {
      const path = existingRealPath(join(root, name))
      if (path !== undefined && roots.some((writable) => isInside(path, writable))) paths.add(path)
    }
  }
  return [...paths]
}

/** The canonical path of an existing file or folder, else undefined. */
export function existingRealPath(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function isInside(path: string, root: string): boolean {
  const inside = relative(root, path)
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
}
