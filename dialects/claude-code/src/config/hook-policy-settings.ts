import type { ClaudeHookSource } from '../types.js'
import { type MergedListSetting, resolveAllowList } from './allow-list-setting.js'
import { describeJsonType } from './json-value.js'
import { type ManagedHooksOnly, resolveManagedHooksOnly } from './managed-hooks-only.js'
import type { SettingsDocument } from './settings-document.js'
import { type UnusableManagedSettings, unusableManagedSettings } from './unusable-managed-settings.js'

/** A setting's winning value and the file it came from (named in drop reasons). */
export interface SettingOrigin<T> {
  value: T
  path: string
  source: ClaudeHookSource
}

/** The hook-related settings keys, resolved across the settings files. */
export interface HookPolicySettings {
  disableAllHooks: SettingOrigin<boolean> | undefined
  /** Counted from managed settings only. */
  allowManagedHooksOnly: ManagedHooksOnly | undefined
  allowedHttpHookUrls: MergedListSetting | undefined
  httpHookAllowedEnvVars: MergedListSetting | undefined
  /** Managed files that exist but cannot be used: their policy is unknown, so only managed hooks run. */
  unusableManaged: UnusableManagedSettings[]
}

export interface HookPolicyOptions {
  /** Let other sources add to an allow list that managed settings set, as Claude Code does. */
  widenManagedAllowLists: boolean
}

const PRECEDENCE: Readonly<Record<ClaudeHookSource, number>> = { managed: 0, flag: 1, local: 2, project: 3, user: 4, plugin: 5 }

/**
 * Scalars: managed > `--settings` > local > project > user [docs]; within managed (base file, then managed-settings.d
 * by name) and within several `--settings`, the later file wins, as drop-ins do. A `disableAllHooks` of the wrong type
 * is ignored with a warning, in managed settings too, as Claude Code does: turning hooks off is no restriction, so it
 * has no fail-closed reading. `allowManagedHooksOnly` anywhere but managed settings is ignored with a warning, since it
 * would otherwise look like it works. Lists: see `resolveAllowList`.
 */
export function resolveHookPolicySettings(
  documents: readonly SettingsDocument[],
  options: HookPolicyOptions,
  warnings: string[],
): HookPolicySettings {
  const readable = documents.filter((document) => document.content !== undefined)
  for (const document of readable) {
    if (document.report.source !== 'managed' && document.content?.allowManagedHooksOnly !== undefined) {
      warnings.push(`${document.report.path}: allowManagedHooksOnly counts only in managed settings; ignored`)
    }
  }
  return {
    disableAllHooks: winningBoolean(readable, 'disableAllHooks', warnings),
    allowManagedHooksOnly: resolveManagedHooksOnly(readable, warnings),
    allowedHttpHookUrls: resolveAllowList(readable, 'allowedHttpHookUrls', options.widenManagedAllowLists, warnings),
    httpHookAllowedEnvVars: resolveAllowList(readable, 'httpHookAllowedEnvVars', options.widenManagedAllowLists, warnings),
    unusableManaged: unusableManagedSettings(documents),
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
