import type { SettingsDocument } from './settings-document.js'

/** A managed settings file that exists but could not be read or parsed: the policy it holds is unknown. */
export interface UnusableManagedSettings {
  path: string
  error: string
}

/**
 * The loud warning for an unusable managed file. Claude Code 2.1.332 refuses to start with one (exit 1, "none of its
 * settings are in effect. Fix or remove it."); the dialect cannot refuse the kernel's session, so it fails closed on
 * the hooks instead: the hooks of usable managed files still run, every other hook is dropped.
 */
export function unusableManagedWarning(path: string, error: string): string {
  return `${path}: managed settings cannot be used: ${error}. Only managed hooks run until it is fixed or removed (Claude Code refuses to start with it)`
}

/**
 * The managed files read that could not be used. Called before any `hooks` is parsed, so only read and parse failures
 * count: a broken `hooks` key loses that file's hooks, not its policy (Claude Code ignores the key the same way).
 */
export function unusableManagedSettings(documents: readonly SettingsDocument[]): UnusableManagedSettings[] {
  return documents.flatMap(({ report }) =>
    report.source === 'managed' && report.error !== undefined ? [{ path: report.path, error: report.error }] : [],
  )
}
