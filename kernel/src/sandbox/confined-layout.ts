import { realpathSync, statSync } from 'node:fs'
import { isAbsolute, relative } from 'node:path'
import type { SandboxConfinement } from '../guardrails/types.js'

/** The canonical path of an existing file or folder, else undefined. */
function existing(path: string): string | undefined {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

function isInside(path: string, dir: string): boolean {
  const rest = relative(dir, path)
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest))
}

/**
 * The writable roots both the policy and the confinement allow: each root of one that lies inside a root of the other.
 * `policyRoots` undefined: the policy confines nothing (full access), so the confinement's roots stand alone.
 */
export function confinedRoots(policyRoots: readonly string[] | undefined, confinement: SandboxConfinement): string[] {
  const theirs = confinement.writableRoots.flatMap((root) => existing(root) ?? [])
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
 * read-only, `denyRead` hidden behind an empty read-only folder or `/dev/null`. Paths that do not exist are left out:
 * bubblewrap needs a mount point, which it would leave behind on the host.
 */
export function confinementArgs(confinement: SandboxConfinement): string[] {
  const args: string[] = []
  for (const path of new Set(confinement.denyWrite.flatMap((entry) => existing(entry) ?? []))) args.push('--ro-bind', path, path)
  for (const path of new Set(confinement.denyRead.flatMap((entry) => existing(entry) ?? []))) {
    if (statSync(path).isDirectory()) args.push('--tmpfs', path, '--remount-ro', path)
    else args.push('--ro-bind', '/dev/null', path)
  }
  return args
}
