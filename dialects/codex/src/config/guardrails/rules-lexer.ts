import type { RulesPosition } from './rules-syntax-error.js'

export type RulesToken = RulesPosition &
  (
    | { kind: 'name'; text: string }
    | { kind: 'string'; value: string; bytes: boolean }
    | { kind: 'int'; text: string }
    | { kind: 'punct'; text: '(' | ')' | '[' | ']' | ',' | '=' | '+' | ';' }
    | { kind: 'newline' }
    | { kind: 'end' }
  )

/** A lexing problem, positioned; the caller names the file. */
export class RulesLexError extends Error {
  constructor(
    message: string,
    readonly at: RulesPosition,
  ) {
    super(message)
  }
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y
const DIGITS = /[0-9]+/y
const PUNCT = new Set(['(', ')', '[', ']', ',', '=', '+', ';'])
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
}

/**
 * Splits the Starlark subset of `.rules` files into tokens: names, string literals (single, double or triple quoted,
 * `r`/`b` prefixes, Starlark's escapes, unknown escapes kept as written), integers, punctuation and the newlines that
 * end statements (none inside brackets). Comments, blank lines and `\` line continuations are dropped. An indented
 * statement is an error, as in Starlark. Lazy, as Starlark's lexer is: a parse error before a bad token wins.
 */
export function* lexRules(text: string): Generator<RulesToken, void, undefined> {
  let last: RulesToken['kind'] | undefined
  const emit = (token: RulesToken) => {
    last = token.kind
    return token
  }
  let i = 0
  let line = 1
  let lineStart = 0
  let depth = 0
  let atLineStart = true
  const here = (): RulesPosition => ({ line, column: i - lineStart + 1 })
  const newline = () => {
    line++
    lineStart = i
  }
  while (i < text.length) {
    const c = text[i]!
    if (atLineStart && depth === 0) {
      atLineStart = false
      let j = i
      while (text[j] === ' ' || text[j] === '\t') j++
      const next = text[j]
      if (j > i && next !== undefined && next !== '\n' && next !== '\r' && next !== '#')
        throw new RulesLexError('unexpected indentation (statements start at column 1)', here())
      continue
    }
    if (c === '\n') {
      const at = here()
      i++
      if (depth === 0 && last !== undefined && last !== 'newline') yield emit({ kind: 'newline', ...at })
      newline()
      atLineStart = true
      continue
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++
      continue
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++
      continue
    }
    if (c === '\\') {
      const after = text[i + 1] === '\r' ? i + 2 : i + 1
      if (text[after] !== '\n') throw new RulesLexError("unexpected '\\' outside a string", here())
      i = after + 1
      newline()
      continue
    }
    const start = here()
    const prefix = /^(?:[rR][bB]?|[bB][rR]?|[fF][rR]?|[rR][fF])?(?=['"])/.exec(text.slice(i, i + 3))?.[0] ?? ''
    if (text[i + prefix.length] === '"' || text[i + prefix.length] === "'") {
      const lower = prefix.toLowerCase()
      i += prefix.length
      const value = readString(lower.includes('r'))
      if (lower.includes('f') && /[{}]/.test(value))
        throw new RulesLexError('f-strings with placeholders are not supported in .rules files', start)
      yield emit({ kind: 'string', value, bytes: lower.includes('b'), ...start })
      continue
    }
    if (/[A-Za-z_]/.test(c)) {
      const name = stickyMatch(NAME, text, i)
      i += name.length
      yield emit({ kind: 'name', text: name, ...start })
      continue
    }
    if (/[0-9]/.test(c)) {
      const digits = stickyMatch(DIGITS, text, i)
      i += digits.length
      yield emit({ kind: 'int', text: digits, ...start })
      continue
    }
    if (PUNCT.has(c)) {
      if (c === '(' || c === '[') depth++
      if ((c === ')' || c === ']') && depth > 0) depth--
      i++
      yield emit({ kind: 'punct', text: c as '(' | ')' | '[' | ']' | ',' | '=' | '+' | ';', ...start })
      continue
    }
    throw new RulesLexError(`unexpected character ${JSON.stringify(c)}`, start)
  }
  if (last !== undefined && last !== 'newline') yield emit({ kind: 'newline', ...here() })
  yield emit({ kind: 'end', ...here() })

  function readString(raw: boolean): string {
    const start = here()
    const quote = text[i]!
    const triple = text.startsWith(quote.repeat(3), i)
    const close = triple ? quote.repeat(3) : quote
    i += close.length
    let value = ''
    for (;;) {
      if (i >= text.length) throw new RulesLexError('unfinished string literal', start)
      if (text.startsWith(close, i)) {
        i += close.length
        return value
      }
      const c = text[i]!
      if (c === '\n') {
        if (!triple) throw new RulesLexError('unfinished string literal', start)
        value += c
        i++
        newline()
        continue
      }
      if (c !== '\\') {
        value += c
        i++
        continue
      }
      const next = text[i + 1]
      if (next === undefined) throw new RulesLexError('unfinished string literal', start)
      if (raw) {
        // In a raw string a backslash keeps the next character, a quote included, and both stay in the value.
        value += c + next
        i += 2
        if (next === '\n') newline()
        continue
      }
      i += 2
      if (next === '\n') {
        newline()
        continue
      }
      value += escapeSequence(next)
    }
  }

  function escapeSequence(next: string): string {
    const simple = SIMPLE_ESCAPES[next]
    if (simple !== undefined) return simple
    if (/[0-7]/.test(next)) {
      const digits = next + (/^[0-7]{0,2}/.exec(text.slice(i, i + 2))?.[0] ?? '')
      i += digits.length - 1
      return String.fromCodePoint(Number.parseInt(digits, 8))
    }
    const width = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0
    if (width > 0) {
      const hex = text.slice(i, i + width)
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) throw new RulesLexError(`invalid \\${next} escape in a string literal`, here())
      i += width
      const code = Number.parseInt(hex, 16)
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        throw new RulesLexError(`invalid \\${next} escape in a string literal`, here())
      return String.fromCodePoint(code)
    }
    // Starlark keeps an unknown escape as written: "a\d" is the three characters a, \, d.
    return `\\${next}`
  }
}

function stickyMatch(pattern: RegExp, text: string, at: number): string {
  pattern.lastIndex = at
  return pattern.exec(text)![0]
}
