import type { ClaudeHookSource, SettingsSourceReport } from '../types.js'
import type { JsonObject } from './json-value.js'
import { type JsonObjectRead, parseJsonObjectText, readJsonObjectFile } from './read-json-file.js'
import { unusableManagedWarning } from './unusable-managed-settings.js'

/** One settings-shaped source as loaded: what the report says about it, and its top-level object when usable. */
export interface SettingsDocument {
  report: SettingsSourceReport
  /** undefined: absent or unusable; such a source contributes neither hooks nor settings. */
  content: JsonObject | undefined
}

export function readSettingsFile(source: ClaudeHookSource, path: string, warnings: string[]): SettingsDocument {
  return settingsDocument(source, path, readJsonObjectFile(path), warnings)
}

/** Inline `--settings` JSON, named by `path` (e.g. `<--settings #1>`) in keys and warnings. */
export function parseSettingsText(source: ClaudeHookSource, path: string, text: string, warnings: string[]): SettingsDocument {
  return settingsDocument(source, path, parseJsonObjectText(text), warnings)
}

/** Marks a document unusable: its report carries the error, a warning names the path, and it contributes nothing. */
export function failSettingsDocument(document: SettingsDocument, error: string, warnings: string[]): void {
  document.report.error = error
  document.content = undefined
  warnings.push(`${document.report.path}: ${error}; its hooks are skipped`)
}

/** A managed file or folder that exists but cannot be read: its policy is unknown, which fails closed (see `settingsGateReason`). */
export function unusableManagedDocument(path: string, error: string, warnings: string[]): SettingsDocument {
  warnings.push(unusableManagedWarning(path, error))
  return { report: { source: 'managed', path, found: true, error }, content: undefined }
}

function settingsDocument(source: ClaudeHookSource, path: string, read: JsonObjectRead, warnings: string[]): SettingsDocument {
  if (!read.found) return { report: { source, path, found: false }, content: undefined }
  if ('error' in read) {
    if (source === 'managed') return unusableManagedDocument(path, read.error, warnings)
    const document: SettingsDocument = { report: { source, path, found: true }, content: undefined }
    failSettingsDocument(document, read.error, warnings)
    return document
  }
  return { report: { source, path, found: true }, content: read.content }
}
