import { parse } from 'smol-toml'
import { tomlKey, tomlKeyPath, tomlString } from './toml-key.js'
import { type Span, scanTomlStatements, type TomlValueSpan } from './toml-statements.js'

export type HookStateField = 'trusted_hash' | 'enabled'

/**
 * Sets `[hooks.state."<key>"] <field>` in the text of a config.toml, changing nothing else: the value is
 * replaced in place where the field exists, the line is added to the key's existing table (header, dotted keys
 * or inline table) where it does not, and a new `[hooks.state."<key>"]` table is appended otherwise. The result
 * is re-parsed and must differ from the original document in that one value only, or this throws.
 */
export function setHookStateField(text: string, key: string, field: HookStateField, value: string | boolean): string {
  return setTomlTableField(text, ['hooks', 'state', key], field, value)
}

/**
 * Sets `<field>` of the table at `table` (e.g. `['projects', '/home/user/project']`) in the text of a config.toml,
 * the way `setHookStateField` does: in place, in the table's existing definition, or in a new `[…]` table appended at
 * the end (its last segment always quoted, as Codex writes `[projects."<path>"]`). Throws where that cannot be done
 * without changing anything else.
 */
export function setTomlTableField(text: string, table: readonly string[], field: string, value: string | boolean): string {
  const expected = withField(parseDocument(text, 'the config is not valid TOML'), table, field, value)
  const literal = typeof value === 'string' ? tomlString(value) : String(value)
  const newline = text.includes('\r\n') ? '\r\n' : '\n'
  let next: string
  try {
    next = edit(text, [...table], field, literal, newline)
  } catch (err) {
    throw new Error(`cannot edit the config without reformatting it: ${(err as Error).message}`)
  }
  const after = parseDocument(next, 'the edit would make the config invalid')
  if (!sameToml(after, expected)) {
    throw new Error('cannot edit the config without reformatting it: the edit would change other settings')
  }
  return next
}

function parseDocument(text: string, failure: string): Record<string, unknown> {
  try {
    return parse(text, { integersAsBigInt: true })
  } catch (err) {
    throw new Error(`${failure}: ${(err as Error).message.split('\n')[0]}`)
  }
}

function edit(text: string, target: string[], field: string, literal: string, newline: string): string {
  const path = [...target, field]
  const statements = scanTomlStatements(text)
  const replace = (span: Span) => text.slice(0, span.start) + literal + text.slice(span.end)
  const insert = (at: number, content: string) => text.slice(0, at) + content + text.slice(at)
  // A new line at `at` (a line start, or the end of a file that lacks a final newline).
  const insertLine = (at: number, line: string) =>
    insert(at, at === text.length && text.length > 0 && !text.endsWith('\n') ? newline + line : line + newline)

  const editInline = (value: TomlValueSpan, rest: string[]): string => {
    const inline = value.inline!
    for (const entry of inline.entries) {
      if (same(entry.key, rest)) return replace(entry.value)
      if (isPrefix(entry.key, rest) && entry.value.inline) return editInline(entry.value, rest.slice(entry.key.length))
    }
    const assignment = `${tomlKeyPath(rest)} = ${literal}`
    const last = inline.entries.at(-1)
    if (last) return insert(last.value.end, `, ${assignment}`)
    return insert(inline.close, text.slice(value.start + 1, inline.close) === '' ? ` ${assignment} ` : `${assignment} `)
  }

  const header = statements.findIndex((s) => s.kind === 'table' && !s.array && same(s.path, target))
  if (header >= 0) {
    for (let k = header + 1; k < statements.length; k++) {
      const statement = statements[k]!
      if (statement.kind === 'table') break
      if (same(statement.key, [field])) return replace(statement.value)
    }
    return insertLine(statements[header]!.lineEnd, `${field} = ${literal}`)
  }
  for (const statement of statements) {
    if (statement.kind !== 'keyval') continue
    const full = [...statement.table, ...statement.key]
    if (same(full, path)) return replace(statement.value)
    if (isPrefix(full, path) && statement.value.inline) return editInline(statement.value, path.slice(full.length))
    if (statement.table.length < target.length && isPrefix(target, full) && full.length > target.length) {
      return insertLine(statement.lineEnd, `${statement.indent}${tomlKeyPath(path.slice(statement.table.length))} = ${literal}`)
    }
  }
  const heading = `[${[...target.slice(0, -1).map(tomlKey), tomlString(target.at(-1)!)].join('.')}]`
  const table = `${heading}${newline}${field} = ${literal}${newline}`
  return text.length === 0 ? table : text + newline + table
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i])
}

function isPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i])
}

function isTable(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
}

/** The document as it should read after the edit. */
function withField(doc: Record<string, unknown>, path: readonly string[], field: string, value: unknown): Record<string, unknown> {
  const copy = { ...doc }
  let table: Record<string, unknown> = copy
  for (const segment of path) {
    const child = table[segment]
    if (child !== undefined && !isTable(child)) {
      throw new Error(`cannot set ${path.slice(0, -1).join('.')}: ${segment} is not a table in the config`)
    }
    const next = { ...child }
    table[segment] = next
    table = next
  }
  table[field] = value
  return copy
}

function sameToml(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return String(a) === String(b)
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameToml(item, b[i]))
  if (isTable(a)) {
    if (!isTable(b)) return false
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameToml(a[k], b[k]))
  }
  return Object.is(a, b)
}
