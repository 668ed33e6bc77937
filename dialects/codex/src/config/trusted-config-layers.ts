import { join, resolve } from 'node:path'
import { resolveCodexHome } from './codex-home.js'
import { projectTrust } from './project-layers.js'
import { readTomlFile } from './read-toml-file.js'
import { SESSION_FLAGS_CONFIG_PATH, sessionFlagsTable } from './session-flags.js'
import { mergeToml, type TomlTable } from './toml-table.js'

export interface TrustedConfigLayersOptions {
  cwd: string
  /** Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  /** `codex -c key=value` overrides. */
  sessionFlags?: readonly string[]
  /** Where `CODEX_HOME` and `HOME` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * The config.toml layers Codex reads in `cwd`, in the order it merges them: the user's, each trusted project's
 * `.codex/config.toml` (an untrusted project's is not read, as Codex), then the session flags. A file that cannot be
 * read is an empty layer, with a warning in `warnings`.
 */
export function trustedConfigLayers(options: TrustedConfigLayersOptions, warnings: string[]): { path: string; table: TomlTable }[] {
  const codexHome = resolveCodexHome(options.codexHome, options.env ?? process.env)
  const userPath = join(codexHome, 'config.toml')
  const user = readTomlFile(userPath, warnings) ?? {}
  const flags = sessionFlagsTable(options.sessionFlags ?? [])
  const projects = projectTrust(resolve(options.cwd), codexHome, mergeToml(user, flags))
    .layers.filter((layer) => layer.trusted)
    .map((layer) => {
      const path = join(layer.dotCodex, 'config.toml')
      return { path, table: readTomlFile(path, warnings) ?? {} }
    })
  return [{ path: userPath, table: user }, ...projects, { path: SESSION_FLAGS_CONFIG_PATH, table: flags }]
}

/** The layers merged, later over earlier. */
export function mergedLayers(layers: readonly { table: TomlTable }[]): TomlTable {
  return layers.reduce<TomlTable>((merged, layer) => mergeToml(merged, layer.table), {})
}
