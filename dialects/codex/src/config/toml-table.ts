/** A parsed TOML table (smol-toml gives null-prototype objects, so `__proto__` is an ordinary key). */
export type TomlTable = Record<string, unknown>

export function isTable(value: unknown): value is TomlTable {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
}

/** Codex's `merge_toml_values`: tables merge key by key, anything else is replaced by the later layer. */
export function mergeToml(base: TomlTable, overlay: TomlTable): TomlTable {
  const merged: TomlTable = Object.assign(Object.create(null), base)
  for (const [key, value] of Object.entries(overlay)) {
    const current = merged[key]
    merged[key] = isTable(current) && isTable(value) ? mergeToml(current, value) : value
  }
  return merged
}
