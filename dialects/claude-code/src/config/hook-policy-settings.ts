import type { ClaudeHookSource } from '../types.js'
import { describeJsonType } from './json-value.js'
import type { SettingsDocument } from './settings-document.js'

/** A setting's winning value and the file it came from (named in drop reasons). */
export interface SettingOrigin<T> {
  value: T
  path: string
  source: ClaudeHookSource
}

/** A list merged across sources, and the files that contributed to it. */
export interface MergedListSetting {
  values: string[]
  paths: string[]
}

/** The hook-related settings keys, resolved across the settings files. */
export interface HookPolicySettings {
  disableAllHooks: SettingOrigin<boolean> | undefined
  /** Counted from managed settings only. */
  allowManagedHooksOnly: SettingOrigin<boolean> | undefined
  allowedHttpHookUrls: MergedListSetting | undefined
  httpHookAllowedEnvVars: MergedListSetting | undefined
}

const PRECEDENCE: Readonly<Record<ClaudeHookSource, number>> = { managed: 0, flag: 1, local: 2, project: 3, user: 4, plugin: 5 }

/**
 * Scalars: managed > `--settings` > local > project > user [docs]; within managed (base file, then managed-settings.d
 * by name) and within several `--settings`, the later file wins, as drop-ins do. A value of the wrong type is ignored
 * with a warning. `allowManagedHooksOnly` anywhere but managed settings is ignored with a warning, since it would
 * otherwise look like it works.
 *
 * Lists: `allowedHttpHookUrls` and `httpHookAllowedEnvVars` merge (concatenate, deduplicated) across every source
 * [docs: "Arrays merge across settings sources"]; unset everywhere = no restriction, `[]` = nothing allowed. A value
 * that is not an array counts as `[]` (an allow-list that cannot be read allows nothing), with a warning.
 */
export function resolveHookPolicySettings(documents: readonly SettingsDocument[], warnings: string[]): HookPolicySettings {
  const readable = documents.filter((document) => document.content !== undefined)
  for (const document of readable) {
    if (document.report.source !== 'managed' && document.content?.allowManagedHooksOnly !== undefined) {
      warnings.push(`${document.report.path}: allowManagedHooksOnly counts only in managed settings; ignored`)
    }
  }
  return {
    disableAllHooks: winningBoolean(readable, 'disableAllHooks', warnings),
    allowManagedHooksOnly: winningBoolean(
      readable.filter((document) => document.report.source === 'managed'),
      'allowManagedHooksOnly',
      warnings,
    ),
    allowedHttpHookUrls: mergedList(readable, 'allowedHttpHookUrls', warnings),
    httpHookAllowedEnvVars: mergedList(readable, 'httpHookAllowedEnvVars', warnings),
  }
}

function winningBoolean(documents: readonly SettingsDocument[], key: string, warnings: string[]): SettingOrigin<boolean> | undefined {
  const candidates: { origin: SettingOrigin<boolean>; order: number }[] = []
  documents.forEach((document, order) => {
    const value = document.content?.[key]
    if (value === undefined) return
    if (typeof value !== 'boolean') {
      warnings.push(`${document.report.path}: ${key} must be a boolean, got ${describeJsonType(value)}; ignored`)
      return
    }
    candidates.push({ origin: { value, path: document.report.path, source: document.report.source }, order })
  })
  candidates.sort((a, b) => PRECEDENCE[a.origin.source] - PRECEDENCE[b.origin.source] || b.order - a.order)
  return candidates[0]?.origin
}

function mergedList(documents: readonly SettingsDocument[], key: string, warnings: string[]): MergedListSetting | undefined {
  let merged: MergedListSetting | undefined
  for (const document of documents) {
    const value = document.content?.[key]
    if (value === undefined) continue
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
