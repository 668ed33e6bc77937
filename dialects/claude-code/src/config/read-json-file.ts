import { readFileSync } from 'node:fs'
import { describeJsonSyntaxError } from './json-syntax-error.js'
import { describeJsonType, isJsonObject, type JsonObject } from './json-value.js'

/** A JSON file whose top level must be an object: absent, read, or present but unusable (with the cause). */
export type JsonObjectRead = { found: false } | { found: true; content: JsonObject } | { found: true; error: string }

export function readJsonObjectFile(path: string): JsonObjectRead {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { found: false }
    return { found: true, error: `cannot read: ${(err as Error).message}` }
  }
  return parseJsonObjectText(text)
}

/** A byte-order mark is skipped and a blank file is an empty object, so an editor's empty file loads as no settings. */
export function parseJsonObjectText(text: string): JsonObjectRead {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  if (body.trim() === '') return { found: true, content: {} }
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return { found: true, error: `invalid JSON at ${describeJsonSyntaxError(body)}` }
  }
  if (!isJsonObject(value)) return { found: true, error: `the top level must be a JSON object, got ${describeJsonType(value)}` }
  return { found: true, content: value }
}
