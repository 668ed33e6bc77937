import type { SessionEvent } from '@harness-kernel/kernel'

/**
 * `jsonb` cannot hold U+0000 or a lone surrogate, which a tool's output (or a user's input) may carry. A value with
 * either is stored as its JSON text in base64 under this key, and decoded on load: the store gives back exactly what
 * it was given. An event keeps, beside it, the fields a query looks for (`seq`, `type`, `at`).
 */
const ENCODED_KEY = '$json'
const NOT_IN_JSONB = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i

/** The JSON text the `body` column keeps for an event. */
export function encodeEvent(event: SessionEvent): string {
  const text = JSON.stringify(event)
  if (!NOT_IN_JSONB.test(text)) return text
  const { v, seq, at, type } = event
  return JSON.stringify({ v, seq, at, type, [ENCODED_KEY]: Buffer.from(text, 'utf8').toString('base64') })
}

/** The JSON text a `jsonb` column keeps for any other value (an inbox row's payload). */
export function encodeJsonb(value: unknown): string {
  const text = JSON.stringify(value)
  if (!NOT_IN_JSONB.test(text)) return text
  return JSON.stringify({ [ENCODED_KEY]: Buffer.from(text, 'utf8').toString('base64') })
}

/** Encoded events as one JSON array: one parameter for a multi-row insert. */
export function jsonArray(encoded: readonly string[]): string {
  return `[${encoded.join(',')}]`
}

export function decodeEvent(body: Record<string, unknown>): SessionEvent {
  return decodeJsonb(body) as SessionEvent
}

/** What `encodeEvent` or `encodeJsonb` was given, from the `jsonb` value read back. */
export function decodeJsonb(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  const encoded = (value as Record<string, unknown>)[ENCODED_KEY]
  if (typeof encoded !== 'string') return value
  return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))
}
