import { RegexCursor, spanOf } from './regex-cursor.js'
import { RustRegexReason as R, RegexSyntaxError } from './regex-syntax-error.js'
import type { Assertion, ClassPerl, ClassUnicode, Dot, Literal, Position, Span } from './rust-regex-ast.js'

const META_CHARACTERS = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#', '&', '-', '~'])

/** A single-character construct: a literal, `.`, an assertion, or a Perl or Unicode class. */
export type Primitive = Literal | Assertion | Dot | ClassPerl | ClassUnicode

function isEscapeable(c: string): boolean {
  if (META_CHARACTERS.has(c)) return true
  const cp = c.codePointAt(0)!
  if (cp > 0x7f) return false
  return !/^[0-9A-Za-z<>]$/.test(c)
}

function isHex(c: string): boolean {
  return /^[0-9A-Fa-f]$/.test(c)
}

/** Parses Rust's primitives and escapes (literals, `\x…`, `\p{…}`, `\d`, `\b{start}`…) and decimals. */
export class EscapeParser extends RegexCursor {
  protected parsePrimitive(): Primitive {
    const c = this.char()
    const span = this.spanChar()
    if (c === '\\') return this.parseEscape()
    this.bump()
    if (c === '.') return { kind: 'dot', span }
    if (c === '^') return { kind: 'assertion', span, assertion: 'start-line' }
    if (c === '$') return { kind: 'assertion', span, assertion: 'end-line' }
    return { kind: 'literal', span, c: c.codePointAt(0)!, hexByte: false }
  }

  protected parseEscape(): Primitive {
    const start = this.pos()
    if (!this.bump()) throw this.error(spanOf(start, this.pos()), R.escapeUnexpectedEof)
    const c = this.char()
    if (c >= '0' && c <= '9') throw this.error(spanOf(start, this.spanChar().end), R.unsupportedBackreference)
    if (c === 'x' || c === 'u' || c === 'U') {
      const literal = this.parseHex()
      literal.span = spanOf(start, literal.span.end)
      return literal
    }
    if (c === 'p' || c === 'P') {
      const cls = this.parseUnicodeClass()
      cls.span = spanOf(start, cls.span.end)
      return cls
    }
    if ('dswDSW'.includes(c)) {
      const cls = this.parsePerlClass()
      cls.span = spanOf(start, cls.span.end)
      return cls
    }
    this.bump()
    const span = spanOf(start, this.pos())
    const cp = c.codePointAt(0)!
    if (isEscapeable(c)) return { kind: 'literal', span, c: cp, hexByte: false }
    const special: Record<string, number> = { a: 0x07, f: 0x0c, t: 0x09, n: 0x0a, r: 0x0d, v: 0x0b }
    const value = special[c]
    if (value !== undefined) return { kind: 'literal', span, c: value, hexByte: false }
    const assertion = (kind: Assertion['assertion']): Assertion => ({ kind: 'assertion', span, assertion: kind })
    switch (c) {
      case 'A':
        return assertion('start-text')
      case 'z':
        return assertion('end-text')
      case 'B':
        return assertion('not-word-boundary')
      case '<':
        return assertion('word-start')
      case '>':
        return assertion('word-end')
      case 'b': {
        const wb = assertion('word-boundary')
        if (!this.isEof() && this.char() === '{') {
          const kind = this.maybeParseSpecialWordBoundary(start)
          if (kind !== undefined) {
            wb.assertion = kind
            wb.span = spanOf(start, this.pos())
          }
        }
        return wb
      }
      default:
        throw this.error(span, R.escapeUnrecognized)
    }
  }

  private maybeParseSpecialWordBoundary(wbStart: Position): Assertion['assertion'] | undefined {
    const isValid = (c: string) => /^[A-Za-z-]$/.test(c)
    const start = this.pos()
    if (!this.bumpAndBumpSpace()) throw this.error(spanOf(wbStart, this.pos()), R.specialWordOrRepetitionUnexpectedEof)
    const startContents = this.pos()
    if (!isValid(this.char())) {
      this.setPos(start)
      return undefined
    }
    let name = ''
    while (!this.isEof() && isValid(this.char())) {
      name += this.char()
      this.bumpAndBumpSpace()
    }
    if (this.isEof() || this.char() !== '}') throw this.error(spanOf(start, this.pos()), R.specialWordBoundaryUnclosed)
    const end = this.pos()
    this.bump()
    switch (name) {
      case 'start':
        return 'word-start'
      case 'end':
        return 'word-end'
      case 'start-half':
        return 'word-start-half'
      case 'end-half':
        return 'word-end-half'
      default:
        throw this.error(spanOf(startContents, end), R.specialWordBoundaryUnrecognized)
    }
  }

  private parseHex(): Literal {
    const kind = this.char()
    if (!this.bumpAndBumpSpace()) throw this.error(this.span(), R.escapeUnexpectedEof)
    if (this.char() === '{') return this.parseHexBrace()
    return this.parseHexDigits(kind === 'x' ? 2 : kind === 'u' ? 4 : 8, kind === 'x')
  }

  private parseHexDigits(count: number, byteForm: boolean): Literal {
    let hex = ''
    const start = this.pos()
    for (let i = 0; i < count; i++) {
      if (i > 0 && !this.bumpAndBumpSpace()) throw this.error(this.span(), R.escapeUnexpectedEof)
      if (!isHex(this.char())) throw this.error(this.spanChar(), R.escapeHexInvalidDigit)
      hex += this.char()
    }
    this.bumpAndBumpSpace()
    const span = spanOf(start, this.pos())
    const cp = Number.parseInt(hex, 16)
    if (!isScalarValue(cp)) throw this.error(span, R.escapeHexInvalid)
    return { kind: 'literal', span, c: cp, hexByte: byteForm && cp <= 0xff }
  }

  private parseHexBrace(): Literal {
    let hex = ''
    const bracePos = this.pos()
    const start = this.spanChar().end
    while (this.bumpAndBumpSpace() && this.char() !== '}') {
      if (!isHex(this.char())) throw this.error(this.spanChar(), R.escapeHexInvalidDigit)
      hex += this.char()
    }
    if (this.isEof()) throw this.error(spanOf(bracePos, this.pos()), R.escapeUnexpectedEof)
    const end = this.pos()
    this.bumpAndBumpSpace()
    if (hex.length === 0) throw this.error(spanOf(bracePos, this.pos()), R.escapeHexEmpty)
    const cp = hex.replace(/^0+/, '').length > 8 ? Number.POSITIVE_INFINITY : Number.parseInt(hex, 16)
    if (!isScalarValue(cp)) throw this.error(spanOf(start, end), R.escapeHexInvalid)
    return { kind: 'literal', span: spanOf(start, this.pos()), c: cp, hexByte: false }
  }

  private parseUnicodeClass(): ClassUnicode {
    const negated = this.char() === 'P'
    if (!this.bumpAndBumpSpace()) throw this.error(this.span(), R.escapeUnexpectedEof)
    if (this.char() === '{') {
      const start = this.spanChar().end
      let name = ''
      while (this.bumpAndBumpSpace() && this.char() !== '}') name += this.char()
      if (this.isEof()) throw this.error(this.span(), R.escapeUnexpectedEof)
      this.bump()
      const span = spanOf(start, this.pos())
      const notEqual = name.indexOf('!=')
      if (notEqual >= 0) {
        return namedValue(span, negated, 'not-equal', name.slice(0, notEqual), name.slice(notEqual + 2))
      }
      const colon = name.indexOf(':')
      if (colon >= 0) return namedValue(span, negated, 'colon', name.slice(0, colon), name.slice(colon + 1))
      const equal = name.indexOf('=')
      if (equal >= 0) return namedValue(span, negated, 'equal', name.slice(0, equal), name.slice(equal + 1))
      return { kind: 'unicode', span, negated, query: { type: 'named', name } }
    }
    const start = this.pos()
    const letter = this.char()
    if (letter === '\\') throw this.error(this.spanChar(), R.unicodeClassInvalid)
    this.bumpAndBumpSpace()
    return { kind: 'unicode', span: spanOf(start, this.pos()), negated, query: { type: 'one-letter', letter } }
  }

  private parsePerlClass(): ClassPerl {
    const c = this.char()
    const span = this.spanChar()
    this.bump()
    const lower = c.toLowerCase()
    const perl = lower === 'd' ? 'digit' : lower === 's' ? 'space' : 'word'
    return { kind: 'perl', span, perl, negated: c !== lower }
  }

  /** Like Rust, keeps a decimal's error until the value is needed (an unclosed `{` is reported first). */
  protected tryParseDecimal(emptyReason: string): number | RegexSyntaxError {
    try {
      return this.parseDecimal()
    } catch (error) {
      if (!(error instanceof RegexSyntaxError)) throw error
      return error.reason === R.decimalEmpty ? this.error(error.span, emptyReason) : error
    }
  }

  protected parseDecimal(): number {
    while (!this.isEof() && this.isWhitespace(this.char())) this.bump()
    const start = this.pos()
    let digits = ''
    while (!this.isEof() && this.char() >= '0' && this.char() <= '9') {
      digits += this.char()
      this.bumpAndBumpSpace()
    }
    const span = spanOf(start, this.pos())
    while (!this.isEof() && this.isWhitespace(this.char())) this.bumpAndBumpSpace()
    if (digits.length === 0) throw this.error(span, R.decimalEmpty)
    const value = Number(digits)
    if (value > 0xffffffff) throw this.error(span, R.decimalInvalid)
    return value
  }
}

function namedValue(span: Span, negated: boolean, op: 'equal' | 'colon' | 'not-equal', name: string, value: string): ClassUnicode {
  return { kind: 'unicode', span, negated, query: { type: 'named-value', op, name, value } }
}

function isScalarValue(cp: number): boolean {
  return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)
}
