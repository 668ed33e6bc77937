import { join, resolve } from 'node:path'
import { listManagedDropIns } from './managed-settings-path.js'
import { parseSettingsText, readSettingsFile, type SettingsDocument, unusableManagedDocument } from './settings-document.js'

/** The sources Claude Code's `--setting-sources` chooses among; managed and `--settings` are always read. */
export type SettingSourceName = 'user' | 'project' | 'local'

export const ALL_SETTING_SOURCES: readonly SettingSourceName[] = ['user', 'project', 'local']

const LOAD_ORDER: readonly SettingSourceName[] = ['local', 'project', 'user']

export interface SettingsSourcePlan {
  projectDir: string
  configDir: string
  managedSettingsPath: string | false
  /** `--settings` values: a file path (relative to the project dir) or inline JSON (starts with `{`). */
  settings: readonly string[]
  settingSources: readonly SettingSourceName[]
}

/**
 * The settings files in load order: managed (then `managed-settings.d/`), `--settings` in the order given, local,
 * project, user. A source left out of `settingSources` is not read and not reported.
 */
export function readSettingsSources(plan: SettingsSourcePlan, warnings: string[]): SettingsDocument[] {
  const documents: SettingsDocument[] = []
  if (plan.managedSettingsPath !== false) {
    documents.push(readSettingsFile('managed', plan.managedSettingsPath, warnings))
    const dropIns = listManagedDropIns(plan.managedSettingsPath)
    if ('error' in dropIns) documents.push(unusableManagedDocument(dropIns.dir, dropIns.error, warnings))
    else for (const path of dropIns.paths) documents.push(readSettingsFile('managed', path, warnings))
  }
  plan.settings.forEach((value, index) => {
    documents.push(readFlagSettings(value, index + 1, plan.projectDir, warnings))
  })
  const files: Record<SettingSourceName, string> = {
    local: join(plan.projectDir, '.claude', 'settings.local.json'),
    project: join(plan.projectDir, '.claude', 'settings.json'),
    user: join(plan.configDir, 'settings.json'),
  }
  for (const source of LOAD_ORDER) {
    if (plan.settingSources.includes(source)) documents.push(readSettingsFile(source, files[source], warnings))
  }
  return documents
}

/** Inline `--settings` JSON is named `<--settings #N>` (1-based); a named file that is missing is worth a warning. */
function readFlagSettings(value: string, ordinal: number, projectDir: string, warnings: string[]): SettingsDocument {
  if (value.trimStart().startsWith('{')) return parseSettingsText('flag', `<--settings #${ordinal}>`, value, warnings)
  const path = resolve(projectDir, value)
  const document = readSettingsFile('flag', path, warnings)
  if (!document.report.found) warnings.push(`--settings file ${path} does not exist`)
  return document
}
