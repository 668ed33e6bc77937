import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { SandboxPolicy } from './types.js'

/** Names the sandbox keeps read-only inside every writable root, as Codex's does. */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.agents', '.codex', '.aws']

/** The roots a policy lets a command write (canonical; absent ones left out): Codex's list, in its order. */
export function writableRoots(policy: SandboxPolicy, cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (policy.type !== 'workspaceWrite') return []
  const candidates = [cwd, ...policy.writableRoots]
  if (!policy.excludeSlashTmp) candidates.push('/tmp')
  const tmpdir = env.TMPDIR
  if (!policy.excludeTmpdirEnvVar && tmpdir) candidates.push(tmpdir)
  const roots: string[] = []
  for (const candidate of candidates) {
    const root = canonicalPath(candidate)
    if (root !== undefined && !roots.includes(root)) roots.push(root)
  }
  return roots
}

/**
 * Whether the sandbox would let `path` be written: under a writable root once symbolic links and `..` are resolved, and
 * not inside a protected name at a root's top. An answer for asking first; the sandbox itself enforces it.
 */
export function isWritablePath(path: string, roots: readonly string[]): boolean {
  const resolved = resolveThroughLinks(path)
  const inside = roots
    .map((root) => relative(root, resolved))
    .filter((rest) => rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest))
  // A protected name at the top of any root that holds the path wins: the sandbox binds it read-only over the rest.
  return inside.length > 0 && inside.every((rest) => !PROTECTED_NAMES.includes(rest.split(sep)[0]!))
}

/** The canonical path of an existing file or directory, else undefined. */
function canonicalPath(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

/** The real path `path` would be written at: its deepest existing ancestor resolved, the rest appended. */
export function resolveThroughLinks(path: string, hops = 0): string {
  // A dangling link is written through: follow it to where the write would land.
  const target = hops < 40 ? danglingLinkTarget(path) : undefined
  if (target !== undefined) return resolveThroughLinks(resolve(dirname(path), target), hops + 1)
  const missing: string[] = []
  let current = path
  for (;;) {
    const real = canonicalPath(current)
    if (real !== undefined) return missing.length === 0 ? real : join(real, ...missing.reverse())
    const parent = dirname(current)
    if (parent === current) return path
    missing.push(basename(current))
    current = parent
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink() || canonicalPath(path) !== undefined) return undefined
    return readlinkSync(path)
  } catch {
    return undefined
  }
}
