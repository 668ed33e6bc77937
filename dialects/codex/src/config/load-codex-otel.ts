import { join, resolve } from 'node:path'
import { resolveCodexHome } from './codex-home.js'
import { projectTrust } from './project-layers.js'
import { readTomlFile } from './read-toml-file.js'
import { SESSION_FLAGS_CONFIG_PATH, sessionFlagsTable } from './session-flags.js'
import { mergeToml, type TomlTable } from './toml-table.js'

export interface LoadCodexOtelOptions {
  cwd: string
  /** Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  /** `codex -c key=value` overrides. */
  sessionFlags?: readonly string[]
  /** Where `CODEX_HOME` and `HOME` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * Codex's `[otel]` block in effect in `cwd` (the user's config.toml, each trusted project's `.codex/config.toml`, the
 * session flags, merged as Codex merges them) and the file that set it last, for messages; undefined when none sets
 * it. Its meaning is the reader's (`@harness-kernel/telemetry`); a file that cannot be read is left out silently
 * here, as the other loaders report it.
 */
export function loadCodexOtel(options: LoadCodexOtelOptions): { table: unknown; source: string } | undefined {
  const env = options.env ?? process.env
  const codexHome = resolveCodexHome(options.codexHome, env)
  const cwd = resolve(options.cwd)
  const ignored: string[] = []
  const userPath = join(codexHome, 'config.toml')
  const user = readTomlFile(userPath, ignored) ?? {}
  const flags = sessionFlagsTable(options.sessionFlags ?? [])
  const projects = projectTrust(cwd, codexHome, mergeToml(user, flags))
    .layers.filter((layer) => layer.trusted)
    .map((layer) => {
      const path = join(layer.dotCodex, 'config.toml')
      return { path, table: readTomlFile(path, ignored) ?? {} }
    })
  const layers: { path: string; table: TomlTable }[] = [
    { path: userPath, table: user },
    ...projects,
    { path: SESSION_FLAGS_CONFIG_PATH, table: flags },
  ]
  const setting = layers.filter((layer) => layer.table.otel !== undefined)
  if (setting.length === 0) return undefined
  const merged = layers.reduce<TomlTable>((all, layer) => mergeToml(all, layer.table), {})
  return { table: merged.otel, source: (setting.at(-1) as { path: string }).path }
}
