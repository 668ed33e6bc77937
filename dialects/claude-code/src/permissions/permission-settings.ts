import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { describeJsonType, isJsonObject } from '../config/json-value.js'
import type { SettingsDocument } from '../config/settings-document.js'
import { parsePermissionMode } from './permission-mode.js'
import { checkPermissionRule } from './rule-syntax.js'
import type { ClaudePermissionSettings, PermissionBehavior, PermissionRule } from './types.js'

const BEHAVIORS: readonly PermissionBehavior[] = ['deny', 'ask', 'allow']

export interface PermissionSettingsContext {
  /** Relative `additionalDirectories` resolve against it. */
  projectDir: string
  homeDir?: string
  /**
   * Whether the user accepted Claude Code's trust dialog for the project. Untrusted, the project's `settings.json` can
   * neither allow anything nor widen the working directories. `trustFile` names where the answer is kept.
   */
  trust: { trusted: boolean; trustFile: string }
}

/** Sources a cloned repository controls: they cannot start a session in bypassPermissions (observed). */
const REPOSITORY_SOURCES: ReadonlySet<string> = new Set(['project', 'local'])

/**
 * Claude Code's `permissions` across the settings files (documents in load order: managed, `--settings`, local, project,
 * user), as Claude Code 2.1.332 reads them. Rule arrays merge; the first source that sets `defaultMode` wins (never
 * `bypassPermissions` from the project's own files); `disableBypassPermissionsMode` in any source holds;
 * `allowManagedPermissionRulesOnly` counts only in managed settings; an untrusted project's `settings.json` allows
 * nothing and adds no directory. A managed file that exists but cannot be used leaves its policy unknown, so only
 * managed rules apply. A malformed value is skipped with a warning naming the file, never read as something wider.
 */
export function resolvePermissionSettings(
  documents: readonly SettingsDocument[],
  context: PermissionSettingsContext,
  warnings: string[],
): ClaudePermissionSettings {
  const home = context.homeDir ?? homedir()
  const settings: ClaudePermissionSettings = {
    rules: [],
    defaultMode: undefined,
    disableBypassPermissionsMode: false,
    additionalDirectories: [],
    managedRulesOnly: documents.some((document) => document.report.source === 'managed' && document.report.error !== undefined),
  }
  let refusedBypass: string | undefined
  for (const document of documents) {
    const { content, report } = document
    if (content === undefined) continue
    readManagedRulesOnly(document, settings, warnings)
    const permissions = content.permissions
    if (permissions === undefined) continue
    if (!isJsonObject(permissions)) {
      warnings.push(`${report.path}: "permissions" must be an object, got ${describeJsonType(permissions)}; ignored`)
      continue
    }
    const untrusted = report.source === 'project' && !context.trust.trusted
    const ignoreUntrusted = (count: number, key: string) => {
      const entries = count === 1 ? 'entry' : 'entries'
      const where = relativeSettingsPath(report.path, context.projectDir)
      warnings.push(
        `Ignoring ${count} permissions.${key} ${entries} from ${where}: this workspace has not been trusted. Run Claude Code interactively here once and accept the trust dialog, or set projects[${JSON.stringify(context.projectDir)}].hasTrustDialogAccepted: true in ${context.trust.trustFile}.`,
      )
    }
    for (const behavior of BEHAVIORS) {
      const rules = rulesOf(document, permissions[behavior], behavior, context.projectDir, warnings)
      if (behavior === 'allow' && untrusted && rules.length > 0) ignoreUntrusted(rules.length, 'allow')
      else settings.rules.push(...rules)
    }
    if (readDefaultMode(document, permissions.defaultMode, settings, warnings) === 'refused') refusedBypass ??= document.report.path
    const disable = permissions.disableBypassPermissionsMode
    if (disable === 'disable') settings.disableBypassPermissionsMode = true
    else if (disable !== undefined) {
      warnings.push(`${report.path}: permissions.disableBypassPermissionsMode must be "disable", got ${JSON.stringify(disable)}; ignored`)
    }
    const directories = directoriesOf(document, permissions.additionalDirectories, context.projectDir, home, warnings)
    if (untrusted && directories.length > 0) ignoreUntrusted(directories.length, 'additionalDirectories')
    else settings.additionalDirectories.push(...directories)
  }
  if (settings.managedRulesOnly) settings.rules = settings.rules.filter((rule) => rule.source === 'managed')
  // The project asked for a mode, just not one it may grant itself: the session starts in default mode, as in Claude Code.
  if (settings.defaultMode === undefined && refusedBypass !== undefined) settings.defaultMode = { mode: 'default', path: refusedBypass }
  return settings
}

function readManagedRulesOnly(document: SettingsDocument, settings: ClaudePermissionSettings, warnings: string[]): void {
  const { report } = document
  const value = document.content?.allowManagedPermissionRulesOnly
  if (value === undefined) return
  if (report.source !== 'managed') {
    warnings.push(`${report.path}: allowManagedPermissionRulesOnly counts only in managed settings; ignored`)
  } else if (typeof value !== 'boolean') {
    // Unreadable as a switch, read as on: a managed restriction never loosens by a typo.
    warnings.push(`${report.path}: allowManagedPermissionRulesOnly must be a boolean, got ${describeJsonType(value)}; read as true`)
    settings.managedRulesOnly = true
  } else if (value) settings.managedRulesOnly = true
}

/** Reads `defaultMode` into `settings`; `refused` when it was bypassPermissions from the project's own files. */
function readDefaultMode(
  document: SettingsDocument,
  mode: unknown,
  settings: ClaudePermissionSettings,
  warnings: string[],
): 'refused' | undefined {
  const { report } = document
  if (mode === undefined || settings.defaultMode !== undefined) return undefined
  const parsed = typeof mode === 'string' ? parsePermissionMode(mode) : undefined
  if (parsed === undefined) {
    warnings.push(`${report.path}: permissions.defaultMode ${JSON.stringify(mode)} is not a permission mode; ignored`)
  } else if (parsed === 'bypassPermissions' && REPOSITORY_SOURCES.has(report.source)) {
    warnings.push(`${report.path}: permissions.defaultMode "bypassPermissions" is not taken from project settings; ignored`)
    return 'refused'
  } else settings.defaultMode = { mode: parsed, path: report.path }
  return undefined
}

/**
 * A rule list. A deny or ask given as a single string is read as a list of one: Claude Code drops the whole file
 * instead, which would silently lose its deny rules; an allow given so is ignored (never read wider).
 */
function rulesOf(
  document: SettingsDocument,
  value: unknown,
  behavior: PermissionBehavior,
  projectDir: string,
  warnings: string[],
): PermissionRule[] {
  const { path, source } = document.report
  if (value === undefined) return []
  if (typeof value === 'string' && behavior !== 'allow') {
    warnings.push(`${path}: permissions.${behavior} must be an array of rules; read the string as one rule`)
    value = [value]
  }
  if (!Array.isArray(value)) {
    warnings.push(`${path}: permissions.${behavior} must be an array of rules, got ${describeJsonType(value)}; ignored`)
    return []
  }
  const root = REPOSITORY_SOURCES.has(source) || path.startsWith('<') ? projectDir : dirname(path)
  const rules: PermissionRule[] = []
  for (const entry of value) {
    if (typeof entry !== 'string') {
      warnings.push(`${path}: permissions.${behavior}: a rule must be a string, got ${describeJsonType(entry)}; skipped`)
      continue
    }
    const checked = checkPermissionRule(entry)
    if ('problem' in checked) {
      warnings.push(`${path}: permissions.${behavior}: ${JSON.stringify(entry)} ${checked.problem}; skipped`)
      continue
    }
    rules.push({ text: entry, tool: checked.tool, content: checked.content, behavior, source, path, root })
  }
  return rules
}

function directoriesOf(document: SettingsDocument, value: unknown, projectDir: string, home: string, warnings: string[]): string[] {
  const { path } = document.report
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    warnings.push(`${path}: permissions.additionalDirectories must be an array of paths, got ${describeJsonType(value)}; ignored`)
    return []
  }
  return value.flatMap((entry) => {
    if (typeof entry !== 'string' || entry.trim() === '') {
      warnings.push(`${path}: permissions.additionalDirectories: ${JSON.stringify(entry)} is not a path; skipped`)
      return []
    }
    const expanded = entry === '~' ? home : entry.startsWith('~/') ? join(home, entry.slice(2)) : entry
    return [isAbsolute(expanded) ? resolve(expanded) : resolve(projectDir, expanded)]
  })
}

function relativeSettingsPath(path: string, projectDir: string): string {
  const rel = relative(projectDir, path)
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
