import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { TrustStore } from '@harness-kernel/hook-protocol'
import { layerConfigHookStates, layerStoredHookStates } from '../trust/hook-state.js'
import type { CodexHookSource, LoadedCodexHooks, UntrustedProject } from '../types.js'
import { appendHookEvents, type HookCollection } from './append-hook-events.js'
import { resolveCodexHome } from './codex-home.js'
import { hookEventsEmpty, type RawHookEvents } from './hook-config.js'
import { hookEventsFromContent } from './hook-events-content.js'
import { type ProjectLayer, projectTrust } from './project-layers.js'
import { readHooksJson } from './read-hooks-json.js'
import { parseToml, readTomlFile } from './read-toml-file.js'
import { contentFromToml } from './serde-content.js'
import { SerdeError } from './serde-error.js'
import { SESSION_FLAGS_CONFIG_PATH, sessionFlagsTable } from './session-flags.js'
import { isTable, mergeToml, type TomlTable } from './toml-table.js'

export interface CodexLoadOptions {
  cwd: string
  /** Default: env `CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  env?: NodeJS.ProcessEnv
  /** codex `-c` style `key=value` TOML overrides: `hooks.PreToolUse=[…]`, `hooks.state."<key>".trusted_hash="sha256:…"`. */
  sessionFlags?: readonly string[]
  /** A requirements.toml whose `[hooks]` are managed (and whose `allow_managed_hooks_only` drops the rest). */
  managedRequirementsPath?: string
  /** Extra hooks.json (`*.json`) or config.toml paths, source `explicit`, loaded after the session flags. */
  explicitFiles?: readonly string[]
  /** The harness's own trust store, layered after the user config.toml and before the session flags. */
  trustStore?: TrustStore
}

/** A config layer: its hooks.json folder (if any) and its config.toml. */
interface ConfigLayer {
  source: CodexHookSource
  hooksFolder: string | undefined
  configPath: string
  config: TomlTable | undefined
  /** Warnings from reading config.toml, reported where the layer is loaded. */
  readWarnings: string[]
}

/**
 * Discovers and loads Codex hooks as Codex 0.169.0 does (codex-hooks.md §1–§3): managed requirements, the user's
 * `$CODEX_HOME`, trusted project `.codex/` folders from the project root down to `cwd`, the session flags, then
 * the harness's explicit files, all additive, numbered by one display counter, with trust state and Codex's
 * warnings. Handlers are listed whether or not they may run (see `handlerRuns`). Throws only on a malformed
 * session flag, which Codex refuses too.
 */
export function loadCodexHooks(options: CodexLoadOptions): LoadedCodexHooks {
  const env = options.env ?? process.env
  const codexHome = resolveCodexHome(options.codexHome, env)
  const cwd = resolve(options.cwd)

  const userLayer = configLayer('user', codexHome, join(codexHome, 'config.toml'))
  const flags = sessionFlagsTable(options.sessionFlags ?? [])
  const trust = projectTrust(cwd, codexHome, mergeToml(userLayer.config ?? {}, flags))
  const projects = trust.layers.filter((layer) => layer.trusted)
  const untrustedProject = untrustedProjectOf(trust.target, userLayer.configPath, trust.layers)
  const projectConfigLayers = projects.map((layer) => configLayer('project', layer.dotCodex, join(layer.dotCodex, 'config.toml')))
  const flagsLayer: ConfigLayer = {
    source: 'sessionFlags',
    hooksFolder: undefined,
    configPath: SESSION_FLAGS_CONFIG_PATH,
    config: flags,
    readWarnings: [],
  }
  const layers = [userLayer, ...projectConfigLayers, flagsLayer]

  const effective = layers.reduce<TomlTable>((merged, layer) => mergeToml(merged, layer.config ?? {}), {})

  const collection: HookCollection = { handlers: [], warnings: [], displayOrder: 0, states: new Map() }
  const { warnings, states } = collection
  layerConfigHookStates(states, userLayer.config)
  try {
    layerStoredHookStates(states, options.trustStore?.read())
  } catch (err) {
    // An unreadable harness store trusts nothing more than Codex does; say so rather than fail the session.
    warnings.push((err as Error).message)
  }
  layerConfigHookStates(states, flags)

  let managedOnly = false
  if (options.managedRequirementsPath) {
    const path = resolve(options.managedRequirementsPath)
    const requirements = readTomlFile(path, warnings)
    managedOnly = requirements?.allow_managed_hooks_only === true
    const hooks = requirements?.hooks
    const events = hooks === undefined ? undefined : tomlHookEvents(hooks, path, warnings)
    if (events) {
      const managedDir = isTable(hooks) ? hooks.managed_dir : undefined
      const sourcePath = typeof managedDir === 'string' && isAbsolute(managedDir) ? managedDir : path
      appendHookEvents(collection, { path: sourcePath, source: 'managed', managed: true }, events)
    }
  }

  if (!managedOnly) {
    for (const layer of layers) loadLayer(collection, layer)
    for (const file of options.explicitFiles ?? []) loadExplicitFile(collection, resolve(cwd, file))
  }

  return {
    handlers: collection.handlers,
    warnings,
    featureEnabled: hooksFeatureEnabled(effective),
    ...(untrustedProject === undefined ? {} : { untrustedProject }),
  }
}

/** The untrusted project layers that hold hooks (which Codex skips without a word), if any. */
function untrustedProjectOf(path: string, configPath: string, layers: readonly ProjectLayer[]): UntrustedProject | undefined {
  const skipped = layers
    .filter((layer) => !layer.trusted)
    .map((layer) => ({ dir: layer.dir, dotCodex: layer.dotCodex, hookFiles: hookFilesIn(layer.dotCodex), trustEntry: layer.trustEntry }))
    .filter((layer) => layer.hookFiles.length > 0)
  return skipped.length === 0 ? undefined : { path, configPath, layers: skipped }
}

function hookFilesIn(dotCodex: string): string[] {
  const files: string[] = []
  const json = join(dotCodex, 'hooks.json')
  if (existsSync(json)) files.push(json)
  const toml = join(dotCodex, 'config.toml')
  if (existsSync(toml)) {
    try {
      if (parseToml(readFileSync(toml, 'utf8')).hooks !== undefined) files.push(toml)
    } catch {
      files.push(toml)
    }
  }
  return files
}

function configLayer(source: CodexHookSource, folder: string, configPath: string): ConfigLayer {
  const readWarnings: string[] = []
  return { source, hooksFolder: folder, configPath, config: readTomlFile(configPath, readWarnings), readWarnings }
}

function loadLayer(collection: HookCollection, layer: ConfigLayer): void {
  const { warnings } = collection
  warnings.push(...layer.readWarnings)
  const jsonPath = layer.hooksFolder === undefined ? undefined : join(layer.hooksFolder, 'hooks.json')
  const json = jsonPath === undefined ? undefined : readHooksJson(jsonPath, warnings)
  const hooks = layer.config?.hooks
  const toml = hooks === undefined ? undefined : tomlHookEvents(hooks, layer.configPath, warnings)
  if (json && toml) {
    warnings.push(`loading hooks from both ${jsonPath} and ${layer.configPath}; prefer a single representation for this layer`)
  }
  if (json && jsonPath) appendHookEvents(collection, { path: jsonPath, source: layer.source, managed: false }, json)
  if (toml) appendHookEvents(collection, { path: layer.configPath, source: layer.source, managed: false }, toml)
}

function loadExplicitFile(collection: HookCollection, path: string): void {
  const { warnings } = collection
  if (!existsSync(path)) {
    warnings.push(`failed to read hooks config ${path}: No such file or directory (os error 2)`)
    return
  }
  const file = { path, source: 'explicit' as const, managed: false }
  if (path.endsWith('.json')) {
    const events = readHooksJson(path, warnings)
    if (events) appendHookEvents(collection, file, events)
    return
  }
  const hooks = readTomlFile(path, warnings)?.hooks
  const events = hooks === undefined ? undefined : tomlHookEvents(hooks, path, warnings)
  if (events) appendHookEvents(collection, file, events)
}

/** A layer's `[hooks]` table as events; a type error drops the layer's TOML hooks with Codex's warning. */
function tomlHookEvents(value: unknown, path: string, warnings: string[]): RawHookEvents | undefined {
  try {
    const events = hookEventsFromContent(contentFromToml(value))
    return hookEventsEmpty(events) ? undefined : events
  } catch (err) {
    if (!(err instanceof SerdeError)) throw err
    warnings.push(`failed to parse TOML hooks in ${path}: ${err.message}`)
    return undefined
  }
}

/** `[features] hooks` (stable, on by default), with `codex_hooks` as its deprecated alias. */
function hooksFeatureEnabled(config: TomlTable): boolean {
  const features = config.features
  if (!isTable(features)) return true
  if (typeof features.hooks === 'boolean') return features.hooks
  if (typeof features.codex_hooks === 'boolean') return features.codex_hooks
  return true
}
