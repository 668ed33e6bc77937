import { describeJsonType } from './json-value.js'
import type { SettingsDocument } from './settings-document.js'

/** `allowManagedHooksOnly` as managed settings decide it, and the file that decided. */
export interface ManagedHooksOnly {
  value: boolean
  path: string
  /** What the file held instead of a boolean (`a string`), when the value is its restrictive reading. */
  invalid?: string | undefined
}

/**
 * `allowManagedHooksOnly` counts only from managed settings; among them the later file wins (base, then drop-ins by
 * name). A value that is not a boolean counts as true, its restrictive value, and no later `false` undoes it: Claude
 * Code 2.1.332 does the same ("was present but invalid; treating it as true (its restrictive value) until it is fixed").
 */
export function resolveManagedHooksOnly(documents: readonly SettingsDocument[], warnings: string[]): ManagedHooksOnly | undefined {
  let decided: ManagedHooksOnly | undefined
  for (const { report, content } of documents) {
    const value = content?.allowManagedHooksOnly
    if (report.source !== 'managed' || value === undefined) continue
    const invalid = typeof value === 'boolean' ? undefined : describeJsonType(value)
    if (invalid !== undefined) {
      warnings.push(
        `${report.path}: allowManagedHooksOnly must be a boolean, got ${invalid}; it counts as true (its restrictive value) until it is fixed`,
      )
    }
    if (decided?.invalid !== undefined) continue
    decided = typeof value === 'boolean' ? { value, path: report.path } : { value: true, path: report.path, invalid }
  }
  return decided
}
