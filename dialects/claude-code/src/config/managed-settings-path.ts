import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Where Claude Code reads the file-based managed settings on each platform (Linux and everything else: /etc). */
export function defaultManagedSettingsPath(platform: NodeJS.Platform = process.platform): string {
  switch (platform) {
    case 'darwin':
      return '/Library/Application Support/ClaudeCode/managed-settings.json'
    case 'win32':
      return 'C:\\Program Files\\ClaudeCode\\managed-settings.json'
    default:
      return '/etc/claude-code/managed-settings.json'
  }
}

/**
 * The drop-in files of `managed-settings.d/` beside the managed file: every `*.json` but hidden ones, sorted by name,
 * applied after the base file (the systemd convention the docs name).
 */
export function managedDropInPaths(managedSettingsPath: string, warnings: string[]): string[] {
  const listing = listManagedDropIns(managedSettingsPath)
  if ('error' in listing) warnings.push(`${listing.dir}: ${listing.error}`)
  return 'error' in listing ? [] : listing.paths
}

/** The drop-ins, or why `managed-settings.d/` exists but cannot be listed (absent, or not a folder, is no error). */
export function listManagedDropIns(managedSettingsPath: string): { paths: string[] } | { dir: string; error: string } {
  const dir = join(dirname(managedSettingsPath), 'managed-settings.d')
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { paths: [] }
    return { dir, error: `cannot list: ${(err as Error).message}` }
  }
  return {
    paths: names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort()
      .map((name) => join(dir, name)),
  }
}
