import { mergedLayers, type TrustedConfigLayersOptions, trustedConfigLayers } from './trusted-config-layers.js'

export type LoadCodexOtelOptions = TrustedConfigLayersOptions

/**
 * Codex's `[otel]` block in effect in `cwd` (the user's config.toml, each trusted project's `.codex/config.toml`, the
 * session flags, merged as Codex merges them) and the file that set it last, for messages; undefined when none sets
 * it. Its meaning is the reader's (`@harness-kernel/telemetry`); a file that cannot be read is left out silently
 * here, as the other loaders report it.
 */
export function loadCodexOtel(options: LoadCodexOtelOptions): { table: unknown; source: string } | undefined {
  const layers = trustedConfigLayers(options, [])
  const setting = layers.filter((layer) => layer.table.otel !== undefined)
  if (setting.length === 0) return undefined
  return { table: mergedLayers(layers).otel, source: (setting.at(-1) as { path: string }).path }
}
