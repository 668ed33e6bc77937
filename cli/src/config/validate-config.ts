import { DRIVER_NAMES, isDriverName, isDriverObject } from '../driver-spec.js'
import type { HarnessConfig } from './define-config.js'

type Check = (value: unknown) => string | undefined

const isString: Check = (value) => (typeof value === 'string' ? undefined : 'expected a string')
const checks: Record<keyof HarnessConfig, Check> = {
  plugins: (value) => (Array.isArray(value) || typeof value === 'function' ? undefined : 'expected an array of plugins or a function'),
  model: isString,
  driver: (value) =>
    isDriverName(value) || isDriverObject(value)
      ? undefined
      : `expected ${orList(DRIVER_NAMES.map((name) => `'${name}'`))}, or a Driver object (useDriver's argument, e.g. claudeCodeDriver({ ... }))`,
  system: isString,
  sessionsDir: isString,
  maxStopContinuations: (value) => (typeof value === 'number' && value >= 0 ? undefined : 'expected a number >= 0'),
  modelRetry: (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'expected an object'),
  fsync: (value) =>
    value === 'steering' || value === 'always' || value === 'never' ? undefined : "expected 'steering', 'always' or 'never'",
  maxToolOutputBytes: (value) => (Number.isInteger(value) && (value as number) > 0 ? undefined : 'expected a whole number > 0'),
  processRunner: (value) => (value === 'launcher' || value === 'in-process' ? undefined : "expected 'launcher' or 'in-process'"),
  // Their limits and prices are checked by the kernel, which names the bad one.
  prices: (value) => (isObject(value) ? undefined : 'expected an object of prices by model id'),
  budgets: (value) => (isObject(value) ? undefined : 'expected an object ({ session?, turn? })'),
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Checks the shape of a config module's default export; the message says what is wrong, not where. */
export function validateConfig(value: unknown): HarnessConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`the default export must be a config object (export default defineConfig({ ... })), got ${describe(value)}`)
  }
  for (const [key, field] of Object.entries(value)) {
    if (!Object.hasOwn(checks, key)) {
      throw new Error(`unknown config key "${key}"; known keys: ${Object.keys(checks).join(', ')}`)
    }
    if (field === undefined) continue
    const problem = checks[key as keyof HarnessConfig](field)
    if (problem) throw new Error(`"${key}": ${problem}, got ${describe(field)}`)
  }
  return value as HarnessConfig
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value)
  return typeof value
}
