import { statSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { ClaudeHandler } from '../types.js'
import { readJsonObjectFile } from './read-json-file.js'
import { failSettingsDocument, readSettingsFile, type SettingsDocument } from './settings-document.js'

export type PluginIdentity = NonNullable<ClaudeHandler['plugin']>

export interface PluginHooksDocument extends SettingsDocument {
  plugin: PluginIdentity
}

/**
 * A plugin directory's `hooks/hooks.json` (`{description?, hooks}`), named by `.claude-plugin/plugin.json`'s `name`
 * or else the directory's name. A missing hooks.json is a plugin without hooks, not an error.
 */
export function readPluginHooks(root: string, configDir: string, warnings: string[]): PluginHooksDocument {
  const hooksPath = join(root, 'hooks', 'hooks.json')
  if (!isDirectory(root)) {
    warnings.push(`plugin directory ${root} does not exist`)
    const name = basename(root)
    return {
      report: { source: 'plugin', path: hooksPath, found: false },
      content: undefined,
      plugin: pluginIdentity(name, root, configDir),
    }
  }
  const plugin = pluginIdentity(pluginName(root, warnings), root, configDir)
  const document = readSettingsFile('plugin', hooksPath, warnings)
  if (document.content && document.content.hooks === undefined) failSettingsDocument(document, 'no "hooks" object', warnings)
  return { ...document, plugin }
}

/**
 * `CLAUDE_PLUGIN_DATA` is `<config dir>/plugins/data/<id>`, the id being the plugin's `name@marketplace` with every
 * character outside `[A-Za-z0-9_-]` replaced by `-` [docs]. A plugin loaded from a directory (`--plugin-dir`) has the
 * marketplace `inline` [unverified: seen as `…/plugins/data/<name>-inline` on real machines].
 */
export function pluginDataDir(configDir: string, name: string): string {
  return join(configDir, 'plugins', 'data', `${name}@inline`.replace(/[^A-Za-z0-9_-]/g, '-'))
}

function pluginIdentity(name: string, root: string, configDir: string): PluginIdentity {
  return { name, root, data: pluginDataDir(configDir, name) }
}

function pluginName(root: string, warnings: string[]): string {
  const manifestPath = join(root, '.claude-plugin', 'plugin.json')
  const fallback = basename(root)
  const manifest = readJsonObjectFile(manifestPath)
  if (!manifest.found) return fallback
  if ('error' in manifest) {
    warnings.push(`${manifestPath}: ${manifest.error}; the plugin is named "${fallback}" after its directory`)
    return fallback
  }
  const { name } = manifest.content
  if (typeof name === 'string' && name !== '') return name
  warnings.push(`${manifestPath}: no "name" string; the plugin is named "${fallback}" after its directory`)
  return fallback
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
