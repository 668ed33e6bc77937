import { rustDebugString } from '@harness-kernel/hook-protocol'
import { formatRustFloat, type SerdeError, serde } from './serde-error.js'

/**
 * A buffered value, as serde's `Content`: what an internally tagged enum (the hook handler) is read into
 * before its variant is chosen, and what a TOML value is deserialized from. Map entries keep their order
 * and their duplicates, so `duplicate field` errors come out as in Rust.
 */
export type Content =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'u64' | 'i64' | 'f64'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'seq'; items: Content[] }
  | { kind: 'map'; entries: [string, Content][] }

/** serde_json's description of an unexpected value (`string "5"`, `integer \`5\``, `null`, `map`). */
export function unexpected(content: Content): string {
  switch (content.kind) {
    case 'null':
      return 'null'
    case 'bool':
      return `boolean \`${content.value}\``
    case 'u64':
    case 'i64':
      return `integer \`${content.value}\``
    case 'f64':
      return `floating point \`${formatRustFloat(content.value)}\``
    case 'string':
      return `string ${rustDebugString(content.value)}`
    case 'seq':
      return 'sequence'
    case 'map':
      return 'map'
  }
}

export function invalidType(content: Content, expected: string): SerdeError {
  return serde.invalidType(unexpected(content), expected)
}

export function contentString(content: Content): string {
  if (content.kind !== 'string') throw invalidType(content, 'a string')
  return content.value
}

export function contentOptionalString(content: Content): string | undefined {
  return content.kind === 'null' ? undefined : contentString(content)
}

export function contentBool(content: Content): boolean {
  if (content.kind !== 'bool') throw invalidType(content, 'a boolean')
  return content.value
}

/** `Option<u64>` / `Option<usize>`: negative integers are an invalid value, floats an invalid type. */
export function contentOptionalUnsigned(content: Content, rustType: 'u64' | 'usize'): number | undefined {
  if (content.kind === 'null') return undefined
  if (content.kind === 'u64') return content.value
  if (content.kind === 'i64') {
    if (content.value >= 0) return content.value
    throw serde.invalidValue(unexpected(content), rustType)
  }
  throw invalidType(content, rustType)
}

/** A TOML value (smol-toml, integers as bigint) as Content. Dates deserialize as maps in the `toml` crate. */
export function contentFromToml(value: unknown): Content {
  if (typeof value === 'string') return { kind: 'string', value }
  if (typeof value === 'boolean') return { kind: 'bool', value }
  if (typeof value === 'bigint') return { kind: value < 0n ? 'i64' : 'u64', value: Number(value) }
  if (typeof value === 'number') return { kind: 'f64', value }
  if (Array.isArray(value)) return { kind: 'seq', items: value.map(contentFromToml) }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return { kind: 'map', entries: Object.entries(value).map(([key, item]) => [key, contentFromToml(item)]) }
  }
  return { kind: 'map', entries: [] }
}
