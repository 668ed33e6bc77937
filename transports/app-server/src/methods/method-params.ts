import type { z } from 'zod'
import { parseParams } from '../params.js'
import { invalidRequest, RpcError } from '../rpc-errors.js'

/** JSON-RPC's "invalid params", which Codex answers for values it rejects after parsing. */
const INVALID_PARAMS = -32602

export function invalidParams(message: string): RpcError {
  return new RpcError(INVALID_PARAMS, message)
}

/**
 * Parses the params of a method whose params are an object: a request without any is refused as Codex refuses it
 * (``Invalid request: missing field `params` ``), the rest as `parseParams` does.
 */
export function objectParams<T>(schema: z.ZodType<T>, params: unknown): T {
  if (params === undefined) throw invalidRequest('Invalid request: missing field `params`')
  return parseParams(schema, params)
}

/** A value that must be one of `variants`, refused in Codex's words (``unknown variant `x`, expected `a` or `b` ``). */
export function variant<T extends string>(value: string, variants: readonly T[]): T {
  if ((variants as readonly string[]).includes(value)) return value as T
  throw invalidRequest(`Invalid request: unknown variant \`${value}\`, expected ${expectedOneOf(variants)}`)
}

/** serde's list of what was expected: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``. */
export function expectedOneOf(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``)
  if (quoted.length <= 2) return quoted.join(' or ')
  return `one of ${quoted.join(', ')}`
}

/** The server hands out no pagination cursors (every list fits one page): any cursor is one it never gave. */
export function noCursor(cursor: string | null | undefined): void {
  if (cursor !== undefined && cursor !== null) throw invalidRequest(`invalid cursor: ${cursor}`)
}
