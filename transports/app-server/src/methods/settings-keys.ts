import { expectedOneOf } from './method-params.js'

/**
 * The keys of the harness's settings file: the keys of `harness.config.{mjs,js,ts,mts}` a JSON file can hold (all but
 * `plugins`; `driver` by name), with the same meaning (the CLI's `HarnessConfig`). Keep in step with
 * `cli/src/config/validate-config.ts`; `cli/test/settings-file.test.ts` checks that both know the same keys.
 */
export const SETTINGS_KEYS = [
  'model',
  'driver',
  'system',
  'sessionsDir',
  'maxStopContinuations',
  'modelRetry',
  'fsync',
  'maxToolOutputBytes',
  'processRunner',
  'prices',
  'budgets',
] as const
export type SettingsKey = (typeof SETTINGS_KEYS)[number]

/** A JSON object of settings, as the file holds it. */
export type Settings = Record<string, unknown>

/** What is wrong with a value, and where (a dotted key path). */
export interface SettingsProblem {
  path: string
  problem: string
}

type Check = (value: unknown, path: string) => SettingsProblem | undefined

const MODEL_RETRY_KEYS = ['maxAttempts', 'initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const
const RATES = { input: numberAtLeast(0), output: numberAtLeast(0), cacheRead: numberAtLeast(0), cacheWrite: numberAtLeast(0) }
const LIMITS = object(['maxTokens', 'maxCostUsd'], { maxTokens: integerAtLeast(1), maxCostUsd: numberAbove(0) })

const checks: Record<SettingsKey, Check> = {
  model: string,
  driver: oneOf(['native', 'claude-code', 'codex']),
  system: string,
  sessionsDir: string,
  maxStopContinuations: integerAtLeast(0),
  modelRetry: object(MODEL_RETRY_KEYS, {
    maxAttempts: integerAtLeast(1),
    initialDelayMs: numberAtLeast(0),
    maxDelayMs: numberAtLeast(0),
    maxRetryAfterMs: numberAtLeast(0),
  }),
  fsync: oneOf(['steering', 'always', 'never']),
  maxToolOutputBytes: integerAtLeast(1),
  processRunner: oneOf(['launcher', 'in-process']),
  // USD per million tokens by model id, or the id of another entry (the kernel's `prices` option).
  prices: mapOf((value, path) =>
    typeof value === 'string'
      ? undefined
      : object(['input', 'output', 'cacheRead', 'cacheWrite', 'longPrompt'], {
          ...RATES,
          longPrompt: object(['aboveInputTokens', 'input', 'output', 'cacheRead', 'cacheWrite'], {
            ...RATES,
            aboveInputTokens: integerAtLeast(1),
          }),
        })(value, path),
  ),
  budgets: object(['session', 'turn'], { session: LIMITS, turn: LIMITS }),
}

/** The first problem of a whole settings object, or undefined when every key is known and every value fits. */
export function checkSettings(settings: unknown): SettingsProblem | undefined {
  return object(SETTINGS_KEYS, checks)(settings, '')
}

function object<K extends string>(keys: readonly K[], fields: Record<K, Check>): Check {
  return (value, path) => {
    if (!isPlainObject(value)) return { path, problem: `invalid type: ${describe(value)}, expected a map` }
    for (const [key, field] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      if (!(keys as readonly string[]).includes(key)) {
        return { path: at, problem: `unknown field \`${key}\`, expected ${expectedOneOf(keys)}` }
      }
      const problem = fields[key as K](field, at)
      if (problem) return problem
    }
    return undefined
  }
}

/** A map whose every value passes `check` (any key). */
function mapOf(check: Check): Check {
  return (value, path) => {
    if (!isPlainObject(value)) return { path, problem: `invalid type: ${describe(value)}, expected a map` }
    for (const [key, field] of Object.entries(value)) {
      const problem = check(field, path === '' ? key : `${path}.${key}`)
      if (problem) return problem
    }
    return undefined
  }
}

function numberAbove(min: number): Check {
  return (value, path) => {
    if (typeof value !== 'number') return { path, problem: `invalid type: ${describe(value)}, expected a number` }
    return value > min ? undefined : { path, problem: `invalid value: ${describe(value)}, expected a number > ${min}` }
  }
}

function string(value: unknown, path: string): SettingsProblem | undefined {
  return typeof value === 'string' ? undefined : { path, problem: `invalid type: ${describe(value)}, expected a string` }
}

function oneOf(variants: readonly string[]): Check {
  return (value, path) => {
    if (typeof value !== 'string') return { path, problem: `invalid type: ${describe(value)}, expected ${expectedOneOf(variants)}` }
    return variants.includes(value) ? undefined : { path, problem: `unknown variant \`${value}\`, expected ${expectedOneOf(variants)}` }
  }
}

function numberAtLeast(min: number): Check {
  return (value, path) => {
    if (typeof value !== 'number') return { path, problem: `invalid type: ${describe(value)}, expected a number` }
    return value >= min ? undefined : { path, problem: `invalid value: ${describe(value)}, expected a number >= ${min}` }
  }
}

function integerAtLeast(min: number): Check {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return { path, problem: `invalid type: ${describe(value)}, expected an integer` }
    }
    return value >= min ? undefined : { path, problem: `invalid value: ${describe(value)}, expected an integer >= ${min}` }
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A value as serde names it in an error: ``integer `5` ``, ``string "x"``, `a map`, … */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a sequence'
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value)}`
    case 'number':
      return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``
    case 'boolean':
      return `boolean \`${value}\``
    case 'object':
      return 'a map'
    default:
      return typeof value
  }
}
