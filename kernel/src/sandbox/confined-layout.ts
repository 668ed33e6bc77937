import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join, relative } from 'node:path'
import type { SandboxConfinement } from '../guardrails/types.js'
import { existingRealPath } from './protected-paths.js'

function isInside(path: string, dir: string): boolean {
  const rest = relative(dir, path)
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest))
}

/**
 * The writable roots both the policy and the confinement allow: each root of one that lies inside a root of the other.
 * `policyRoots` undefined: the policy confines nothing (full access), so the confinement's roots stand alone.
 */
export function confinedRoots(policyRoots: readonly string[] | undefined, confinement: SandboxConfinement): string[] {
  const theirs = confinement.writableRoots.flatMap((root) => existingRealPath(root) ?? [])
  if (policyRoots === undefined) return [...new Set(theirs)]
  const both = new Set<string>()
  for (const mine of policyRoots) {
    for (const other of theirs) {
      if (isInside(mine, other)) both.add(mine)
      else if (isInside(other, mine)) both.add(other)
    }
  }
  return [...both]
}

/**
 * bubblewrap's arguments that narrow the view further, after the writable roots are bound: `denyWrite` re-bound
 * read-only, `denyRead` hidden behind a file or folder nobody may open. Paths that do not exist are left out:
 * bubblewrap needs a mount point, which it would leave behind on the host.
 */
export function confinementArgs(confinement: SandboxConfinement): string[] {
  const args: string[] = []
  for (const path of new Set(confinement.denyWrite.flatMap((entry) => existingRealPath(entry) ?? []))) args.push('--ro-bind', path, path)
  for (const path of new Set(confinement.denyRead.flatMap((entry) => existingRealPath(entry) ?? []))) {
    const stand = unreadable()
    args.push('--ro-bind', statSync(path).isDirectory() ? stand.dir : stand.file, path)
  }
  return args
}

let stands: { file: string; dir: string } | undefined
/**
 * A file and a folder nobody may open (mode 000), bound over a denied path: reading it fails with `Permission denied`,
 * as under Claude Code's sandbox, since the sandboxed process has no capability to override the mode. One pair per
 * user, made once and kept (several processes may make it at once: each step tolerates the other's).
 */
function unreadable(): { file: string; dir: string } {
  if (stands !== undefined && existsSync(stands.file)) return stands
  const base = join(tmpdir(), `harness-unreadable-${process.getuid?.() ?? 0}`)
  const file = join(base, 'file')
  const dir = join(base, 'dir')
  mkdirSync(dir, { recursive: true })
  try {
    writeFileSync(file, '', { flag: 'wx' })
  } catch {
    // Made by another process.
  }
  chmodSync(file, 0)
  chmodSync(dir, 0)
  stands = { file, dir }
  return stands
}
