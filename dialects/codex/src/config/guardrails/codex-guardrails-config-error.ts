/**
 * A sandbox, approval or rules setting that cannot be used. Guardrails fail closed: a session does not start on a
 * setting it cannot honour, as Codex refuses to start on an invalid config.toml or `-c` flag.
 */
export class CodexGuardrailsConfigError extends Error {
  /** Where the setting came from: a config.toml or `.rules` path, a `-c` flag, or what a parser was told (`where`). */
  readonly source: string

  constructor(message: string, source: string) {
    super(message)
    this.name = 'CodexGuardrailsConfigError'
    this.source = source
  }
}

/** Where a value was read: its source and, inside a config file, its key. */
export interface SettingOrigin {
  source: string
  key?: string
}

export function settingError(origin: SettingOrigin, problem: string): CodexGuardrailsConfigError {
  const prefix = origin.key === undefined ? origin.source : `${origin.source}: ${origin.key}`
  return new CodexGuardrailsConfigError(`${prefix}: ${problem}`, origin.source)
}

/** A value as a message shows it: strings quoted, TOML integers (bigints) as numbers. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === undefined) return 'nothing'
  try {
    return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? Number(item) : item)) ?? String(value)
  } catch {
    return String(value)
  }
}
