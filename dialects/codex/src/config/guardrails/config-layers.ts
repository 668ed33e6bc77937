import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { readTomlFile } from '../read-toml-file.js'
import { sessionFlagsTable, splitKeyPath } from '../session-flags.js'
import { isTable, mergeToml, type TomlTable } from '../toml-table.js'
import { CodexGuardrailsConfigError, type SettingOrigin } from './codex-guardrails-config-error.js'

/** One of Codex's config layers, as the guardrails read it. */
export interface ConfigLayer {
  /** What messages name: the config.toml path, or `-c` for the session flags. */
  source: string
  table: TomlTable
  /** Relative paths in the layer resolve against this: the file's folder, or cwd for `-c` flags (as Codex does). */
  baseDir: string
  /** The session flags, to name the one that set a key. */
  flags?: readonly string[]
}

/** A config.toml, or an empty table when it is absent. Unreadable or invalid is an error: Codex refuses to start too. */
export function readConfigLayer(path: string, baseDir: string): ConfigLayer {
  const problems: string[] = []
  const table = readTomlFile(path, problems)
  if (problems.length > 0) throw new CodexGuardrailsConfigError(problems.join('; '), path)
  return { source: path, table: table ?? {}, baseDir }
}

export function sessionFlagsLayer(flags: readonly string[], cwd: string): ConfigLayer {
  try {
    return { source: '-c', table: sessionFlagsTable(flags), baseDir: cwd, flags }
  } catch (err) {
    throw new CodexGuardrailsConfigError(`-c: ${(err as Error).message}`, '-c')
  }
}

const PROFILE_NAME = /^[A-Za-z0-9_-]+$/

/**
 * Codex 0.169.0's profiles (`--profile <name>`): `<codexHome>/<name>.config.toml`, layered right above the user's
 * config.toml. The legacy `[profiles.<name>]` table and `profile = "<name>"` selector are refused, with Codex's words.
 * Codex runs on without a missing profile file; the harness refuses, since whoever chose the profile counted on it.
 */
export function profileLayer(options: { codexHome: string; name: string; user: ConfigLayer }): ConfigLayer {
  const { codexHome, name, user } = options
  if (!PROFILE_NAME.test(name))
    throw new CodexGuardrailsConfigError(`invalid --profile value \`${name}\`; pass a plain name such as \`work\``, `--profile ${name}`)
  const path = join(codexHome, `${name}.config.toml`)
  if (user.table.profile === name || (isTable(user.table.profiles) && name in user.table.profiles))
    throw new CodexGuardrailsConfigError(
      `--profile \`${name}\` cannot be used while ${user.source} contains legacy \`profile = "${name}"\` or \`[profiles.${name}]\` config; move those settings into ${path} and remove the legacy profile selector/table.`,
      user.source,
    )
  if (!existsSync(path))
    throw new CodexGuardrailsConfigError(`profile ${name}: ${path} does not exist; create it or choose another profile`, path)
  return { ...readConfigLayer(path, codexHome), source: `${path} (profile ${name})` }
}

export function mergeLayers(layers: readonly ConfigLayer[]): TomlTable {
  return layers.reduce<TomlTable>((merged, layer) => mergeToml(merged, layer.table), {})
}

export function valueAt(table: TomlTable, path: readonly string[]): unknown {
  let value: unknown = table
  for (const part of path) {
    if (!isTable(value)) return undefined
    value = value[part]
  }
  return value
}

/** The layer whose value for `path` is in effect (the last that sets it), named down to the `-c` flag. */
export function layerOf(layers: readonly ConfigLayer[], path: readonly string[]): ConfigLayer | undefined {
  return layers.findLast((layer) => valueAt(layer.table, path) !== undefined)
}

export function originOf(layers: readonly ConfigLayer[], path: readonly string[]): SettingOrigin {
  const key = path.join('.')
  const layer = layerOf(layers, path)
  if (layer?.flags === undefined) return { source: layer?.source ?? 'config', key }
  return { source: flagSetting(layer.flags, path), key }
}

function flagSetting(flags: readonly string[], path: readonly string[]): string {
  const flag = flags.findLast((candidate) => {
    const eq = candidate.indexOf('=')
    const keyPath = eq < 0 ? [] : splitKeyPath(candidate.slice(0, eq).trim())
    const shared = Math.min(keyPath.length, path.length)
    return shared > 0 && keyPath.slice(0, shared).every((part, i) => part === path[i])
  })
  return flag === undefined ? '-c' : `-c ${flag}`
}
