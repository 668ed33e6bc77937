/**
 * Which environment variables reach the processes the `shell` tool (and, opted in, hook commands) start: Codex's
 * `shell_environment_policy`, with its field names in camelCase and its steps in its order (inherit → default excludes
 * → exclude → set → includeOnly).
 */
export interface ShellEnvironmentPolicy {
  /** The starting set: every variable of the kernel's process, only {@link CORE_ENV_VARS}, or none. Default `'all'`. */
  inherit?: ShellEnvironmentInherit
  /** `true` keeps the variables {@link DEFAULT_ENV_EXCLUDES} would remove. Default `false`. */
  ignoreDefaultExcludes?: boolean
  /** Glob patterns (`*`, `?`; case-insensitive) of names to remove. */
  exclude?: readonly string[]
  /** Variables to add or override, after the excludes (so a name `exclude` matches can still be set here). */
  set?: Readonly<Record<string, string>>
  /** Glob patterns (`*`, `?`; case-insensitive): when not empty, only matching names are kept, `set` ones included. */
  includeOnly?: readonly string[]
}

export type ShellEnvironmentInherit = 'all' | 'core' | 'none'

export const shellEnvironmentInherits: readonly ShellEnvironmentInherit[] = ['all', 'core', 'none']

/** What `inherit: 'core'` keeps (names compared exactly). */
export const CORE_ENV_VARS: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP']

/** Removed unless `ignoreDefaultExcludes`: names holding KEY, SECRET or TOKEN, in any case. */
export const DEFAULT_ENV_EXCLUDES: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*']

/** The environment of a child process under `policy`, built from `source` (the kernel's `process.env`). */
export function shellEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  policy: ShellEnvironmentPolicy = {},
): Record<string, string> {
  const inherit = policy.inherit ?? 'all'
  let env = new Map<string, string>()
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || inherit === 'none') continue
    if (inherit === 'all' || CORE_ENV_VARS.includes(name)) env.set(name, value)
  }
  const drop = (patterns: readonly string[]) => {
    const matchers = patterns.map(envNamePattern)
    for (const name of [...env.keys()]) if (matchers.some((pattern) => pattern.test(name))) env.delete(name)
  }
  if (policy.ignoreDefaultExcludes !== true) drop(DEFAULT_ENV_EXCLUDES)
  drop(policy.exclude ?? [])
  for (const [name, value] of Object.entries(policy.set ?? {})) env.set(name, value)
  const includeOnly = (policy.includeOnly ?? []).map(envNamePattern)
  if (includeOnly.length > 0) env = new Map([...env].filter(([name]) => includeOnly.some((pattern) => pattern.test(name))))
  return Object.fromEntries(env)
}

/** A glob over a whole variable name: `*` any run of characters (also none), `?` one character; case-insensitive. */
export function envNamePattern(glob: string): RegExp {
  const body = [...glob].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('')
  return new RegExp(`^${body}$`, 'is')
}

/** Throws a `TypeError` naming what is wrong with a policy given in configuration. */
export function checkShellEnvironmentPolicy(policy: ShellEnvironmentPolicy, where = 'shellEnvironment'): void {
  if (policy.inherit !== undefined && !shellEnvironmentInherits.includes(policy.inherit)) {
    throw new TypeError(`${where}.inherit must be one of ${shellEnvironmentInherits.join(', ')}; got ${JSON.stringify(policy.inherit)}`)
  }
  for (const field of ['exclude', 'includeOnly'] as const) {
    const patterns = policy[field]
    if (patterns !== undefined && (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== 'string'))) {
      throw new TypeError(`${where}.${field} must be an array of glob patterns`)
    }
  }
  for (const [name, value] of Object.entries(policy.set ?? {})) {
    if (typeof value !== 'string') throw new TypeError(`${where}.set.${name} must be a string`)
  }
}
