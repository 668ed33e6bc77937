import type { z } from 'zod'

/**
 * serde's names for what a place in the params expects where zod's kind says too little: `struct TurnStartParams` for
 * the params themselves (key `''`), `internally tagged enum UserInput` for each input item (key `input.*`).
 */
export type SerdeNames = Readonly<Record<string, string>>

type Issue = z.core.$ZodIssue

/**
 * The text Codex (serde) gives for params it cannot parse, from zod's issues: ``missing field `x` ``,
 * ``invalid type: string "x", expected a sequence``, ``unknown variant `x`, expected one of `a`, `b` ``. serde stops at
 * the first wrong value and reports missing fields only after the rest parsed, so type errors come first.
 */
export function serdeMessage(issues: readonly Issue[], params: unknown, names: SerdeNames = {}): string {
  const issue = firstIssue(issues, params)
  if (!issue) return 'invalid params'
  const value = valueAt(params, issue.path)
  if (issue.code === 'invalid_union' && issue.discriminator !== undefined) {
    if (value === undefined) return `missing field \`${issue.discriminator}\``
    if (typeof value !== 'string') return `invalid type: ${unexpected(value)}, expected variant identifier`
    return `unknown variant \`${value}\`, expected ${expectedOneOf((issue as { options?: unknown[] }).options ?? [])}`
  }
  if (issue.code === 'invalid_type') {
    if (issue.path.length === 0 && (value === undefined || value === null)) return 'missing field `params`'
    if (value === undefined) return `missing field \`${String(issue.path.findLast((key) => typeof key === 'string') ?? 'params')}\``
    return `invalid type: ${unexpected(value)}, expected ${names[pattern(issue.path)] ?? EXPECTED[issue.expected] ?? `a ${issue.expected}`}`
  }
  if (issue.code === 'invalid_value') return notAVariant(value, issue.values)
  if (issue.code === 'custom' && issue.params?.serde === true) return issue.message
  const at = issue.path.join('.')
  return `${at === '' ? '' : `${at}: `}${issue.message}`
}

/** serde's order: type errors first, missing fields after the rest parsed. */
function firstIssue(issues: readonly Issue[], params: unknown): Issue | undefined {
  const missing = (issue: Issue) => issue.code === 'invalid_type' && valueAt(params, issue.path) === undefined
  return [...issues].sort((a, b) => Number(missing(a)) - Number(missing(b)))[0]
}

/**
 * Where the reported problem is, for the error's `data` (serde's text does not say): the field as a dotted path
 * (`input.0.text`) and, for a value of the wrong type, what was expected and what came.
 */
export function serdeErrorData(
  issues: readonly Issue[],
  params: unknown,
  names: SerdeNames = {},
): { field: string; expected?: string; got?: string } | undefined {
  const issue = firstIssue(issues, params)
  if (!issue || issue.path.length === 0) return undefined
  const field = issue.path.map(String).join('.')
  const value = valueAt(params, issue.path)
  if (issue.code !== 'invalid_type' || value === undefined) return { field }
  return { field, expected: names[pattern(issue.path)] ?? EXPECTED[issue.expected] ?? `a ${issue.expected}`, got: unexpected(value) }
}

const EXPECTED: Readonly<Record<string, string>> = {
  array: 'a sequence',
  string: 'a string',
  boolean: 'a boolean',
  object: 'a map',
  number: 'a number',
  int: 'an integer',
}

/**
 * A zod issue whose message is already serde's text (a check zod cannot phrase, e.g. Codex's
 * ``AbsolutePathBuf deserialized without a base path``): pass it to `refine`, or to `ctx.addIssue` with `code: 'custom'`.
 */
export function serdeText(message: string): { message: string; params: { serde: true } } {
  return { message, params: { serde: true } }
}

/**
 * serde_json's text for a value that is none of an externally tagged enum's `variants` (Codex reads params from a
 * `Value`): an unknown name, a value neither a string nor a map, a map without exactly one key.
 */
export function notAVariant(value: unknown, variants: readonly unknown[]): string {
  if (typeof value === 'string') return `unknown variant \`${value}\`, expected ${expectedOneOf(variants)}`
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `invalid type: ${unexpected(value)}, expected string or map`
  const keys = Object.keys(value)
  if (keys.length !== 1) return 'invalid value: map, expected map with a single key'
  return `unknown variant \`${keys[0]}\`, expected ${expectedOneOf(variants)}`
}

/** How serde shows a value it did not expect. */
export function unexpected(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'sequence'
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value)}`
    case 'boolean':
      return `boolean \`${value}\``
    case 'number':
      return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``
    default:
      return 'map'
  }
}

/** serde's list of what was expected: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``. */
function expectedOneOf(names: readonly unknown[]): string {
  const quoted = names.map((name) => `\`${String(name)}\``)
  return quoted.length <= 2 ? quoted.join(' or ') : `one of ${quoted.join(', ')}`
}

/** `input.0.text` → `input.*.text`: the key of `SerdeNames`. */
function pattern(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? '*' : String(key))).join('.')
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
