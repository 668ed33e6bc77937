import { parse } from 'smol-toml'

/** A span of the source text: `[start, end)`. */
export interface Span {
  start: number
  end: number
}

export interface TomlValueSpan extends Span {
  /** For an inline table: its entries and the index of its closing `}`. */
  inline?: { entries: TomlKeyValue[]; close: number }
}

export interface TomlKeyValue {
  /** The key's segments, relative to the enclosing table (decoded). */
  key: string[]
  value: TomlValueSpan
}

export type TomlStatement =
  | { kind: 'table'; array: boolean; path: string[]; lineEnd: number }
  | { kind: 'keyval'; table: string[]; key: string[]; value: TomlValueSpan; indent: string; lineEnd: number }

const BARE_KEY = /[A-Za-z0-9_-]/
const SCALAR_END = /[\s,\]}#]/

/**
 * A light scanner over a TOML document that is already known to be valid: it finds table headers and
 * key/value lines (with their table and the exact span of each value), and skips everything else, so the
 * trust writer can change one value without touching any other byte.
 */
export function scanTomlStatements(text: string): TomlStatement[] {
  const statements: TomlStatement[] = []
  let table: string[] = []
  let i = 0

  const fail = (what: string): never => {
    throw new Error(`unexpected TOML at offset ${i}: ${what}`)
  }
  const skipSpaces = () => {
    while (text[i] === ' ' || text[i] === '\t') i++
  }
  const skipBlank = () => {
    for (;;) {
      skipSpaces()
      if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++
      if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] === '\n')) i += text[i] === '\r' ? 2 : 1
      else return
    }
  }
  const lineEnd = (): number => {
    skipSpaces()
    if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++
    if (text[i] === '\r' && text[i + 1] === '\n') i++
    if (i >= text.length) return text.length
    if (text[i] !== '\n') fail('expected end of line')
    return ++i
  }

  const quoted = (): string => {
    const start = i
    const quote = text[i]
    i++
    while (i < text.length && text[i] !== quote && text[i] !== '\n') i += quote === '"' && text[i] === '\\' ? 2 : 1
    if (text[i] !== quote) fail('unterminated string')
    i++
    const value = parse(`k = ${text.slice(start, i)}`).k
    return typeof value === 'string' ? value : fail('bad string')
  }
  const keyPath = (): string[] => {
    const segments: string[] = []
    for (;;) {
      skipSpaces()
      if (text[i] === '"' || text[i] === "'") segments.push(quoted())
      else {
        const start = i
        while (i < text.length && BARE_KEY.test(text[i]!)) i++
        if (i === start) fail('expected a key')
        segments.push(text.slice(start, i))
      }
      skipSpaces()
      if (text[i] !== '.') return segments
      i++
    }
  }

  const multiline = (delimiter: string): void => {
    i += 3
    for (;;) {
      const close = text.indexOf(delimiter, i)
      if (close < 0) fail('unterminated multi-line string')
      let backslashes = 0
      for (let k = close - 1; delimiter === '"""' && text[k] === '\\'; k--) backslashes++
      if (backslashes % 2 === 0) {
        i = close + 3
        break
      }
      i = close + 1
    }
    // A closing delimiter may be preceded by up to two quotes that belong to the content.
    for (let extra = 0; extra < 2 && text[i] === delimiter[0]; extra++) i++
  }
  const value = (): TomlValueSpan => {
    const start = i
    const c = text[i]
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) multiline(text.slice(i, i + 3))
    else if (c === '"' || c === "'") quoted()
    else if (c === '[') {
      i++
      for (;;) {
        skipBlank()
        if (text[i] === ']') break
        value()
        skipBlank()
        if (text[i] === ',') i++
        else if (text[i] !== ']') fail('expected , or ]')
      }
      i++
    } else if (c === '{') {
      i++
      const entries: TomlKeyValue[] = []
      for (;;) {
        skipBlank()
        if (text[i] === '}') break
        const key = keyPath()
        if (text[i] !== '=') fail('expected =')
        i++
        skipSpaces()
        entries.push({ key, value: value() })
        skipBlank()
        if (text[i] === ',') i++
        else if (text[i] !== '}') fail('expected , or }')
      }
      const close = i++
      return { start, end: i, inline: { entries, close } }
    } else {
      while (i < text.length && !SCALAR_END.test(text[i]!)) i++
      // An offset date-time may use a space instead of `T`.
      if (/^\d{4}-\d{2}-\d{2}$/.test(text.slice(start, i)) && /^ \d{2}:/.test(text.slice(i, i + 4))) {
        i++
        while (i < text.length && !SCALAR_END.test(text[i]!)) i++
      }
      if (i === start) fail('expected a value')
    }
    return { start, end: i }
  }

  for (;;) {
    skipBlank()
    if (i >= text.length) return statements
    if (text[i] === '[') {
      const array = text[i + 1] === '['
      i += array ? 2 : 1
      const path = keyPath()
      if (text[i] !== ']' || (array && text[i + 1] !== ']')) fail('expected ]')
      i += array ? 2 : 1
      table = path
      statements.push({ kind: 'table', array, path, lineEnd: lineEnd() })
      continue
    }
    const lineStart = text.lastIndexOf('\n', i - 1) + 1
    const indent = text.slice(lineStart, i)
    const key = keyPath()
    if (text[i] !== '=') fail('expected =')
    i++
    skipSpaces()
    const span = value()
    statements.push({ kind: 'keyval', table, key, value: span, indent, lineEnd: lineEnd() })
  }
}
