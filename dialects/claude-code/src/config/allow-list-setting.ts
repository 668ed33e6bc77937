import { describeJsonType } from './json-value.js'
import type { SettingsDocument } from './settings-document.js'

/** A list merged across sources, and the files that contributed to it. */
export interface MergedListSetting {
  values: string[]
  paths: string[]
}

/**
 * `allowedHttpHookUrls` / `httpHookAllowedEnvVars`. Claude Code 2.1.332 concatenates them across every source, so a
 * project can widen the list managed settings set (observed: a project-only URL was called and a project-only
 * variable sent). Unless `widenManagedAllowLists`, a list that managed settings set is the whole list and other
 * sources' entries are ignored with a warning; a list managed settings do not set merges across the others.
 */
export function resolveAllowList(
  documents: readonly SettingsDocument[],
  key: string,
  widenManagedAllowLists: boolean,
  warnings: string[],
): MergedListSetting | undefined {
  const setting = documents.filter((document) => document.content?.[key] !== undefined)
  const managed = setting.filter((document) => document.report.source === 'managed')
  if (managed.length === 0 || widenManagedAllowLists) return mergedList(setting, key, warnings)
  for (const document of setting) {
    if (document.report.source !== 'managed')
      warnings.push(`${document.report.path}: ${key} cannot widen the list managed settings set; ignored (see widenManagedAllowLists)`)
  }
  return mergedList(managed, key, warnings)
}

/**
 * Concatenated, deduplicated [docs: "Arrays merge across settings sources"]; none set = no restriction, `[]` = nothing
 * allowed. A value that is not an array counts as `[]` (an allow-list that cannot be read allows nothing), as Claude Code
 * does ("enforcing an empty allowlist").
 */
function mergedList(documents: readonly SettingsDocument[], key: string, warnings: string[]): MergedListSetting | undefined {
  let merged: MergedListSetting | undefined
  for (const document of documents) {
    const value = document.content?.[key]
    merged ??= { values: [], paths: [] }
    merged.paths.push(document.report.path)
    if (!Array.isArray(value)) {
      warnings.push(`${document.report.path}: ${key} must be an array of strings, got ${describeJsonType(value)}; it allows nothing`)
      continue
    }
    for (const item of value) {
      if (typeof item !== 'string')
        warnings.push(`${document.report.path}: ${key} entry ${describeJsonType(item)} ignored; entries are strings`)
      else if (!merged.values.includes(item)) merged.values.push(item)
    }
  }
  return merged
}
