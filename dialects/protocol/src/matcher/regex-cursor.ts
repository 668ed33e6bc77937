import { RegexSyntaxError } from './regex-syntax-error.js'
import type { Position, Span } from './rust-regex-ast.js'

const WHITE_SPACE = /^\p{White_Space}$/u

export function spanOf(start: Position, end: Position): Span {
  return { start, end }
}

/** Walks a pattern by code point, tracking Rust's line and column, and skips whitespace and comments in `x` mode. */
export class RegexCursor {
  protected readonly pattern: string
  protected offset = 0
  protected line = 1
  protected column = 1
  protected ignoreWhitespace = false

  constructor(pattern: string) {
    this.pattern = pattern
  }

  /** Rust's `char::is_whitespace`. */
  protected isWhitespace(c: string): boolean {
    return WHITE_SPACE.test(c)
  }

  protected error(span: Span, reason: string, auxSpan?: Span): RegexSyntaxError {
    return new RegexSyntaxError(reason, span, auxSpan)
  }

  protected isEof(): boolean {
    return this.offset >= this.pattern.length
  }

  protected char(): string {
    return this.charAt(this.offset)
  }

  protected charAt(offset: number): string {
    const cp = this.pattern.codePointAt(offset)
    if (cp === undefined) throw new Error(`expected char at offset ${offset}`)
    return String.fromCodePoint(cp)
  }

  protected pos(): Position {
    return { offset: this.offset, line: this.line, column: this.column }
  }

  protected setPos(position: Position): void {
    this.offset = position.offset
    this.line = position.line
    this.column = position.column
  }

  protected span(): Span {
    const p = this.pos()
    return spanOf(p, p)
  }

  protected spanChar(): Span {
    const c = this.char()
    const next: Position =
      c === '\n'
        ? { offset: this.offset + c.length, line: this.line + 1, column: 1 }
        : { offset: this.offset + c.length, line: this.line, column: this.column + 1 }
    return spanOf(this.pos(), next)
  }

  protected bump(): boolean {
    if (this.isEof()) return false
    const c = this.char()
    if (c === '\n') {
      this.line += 1
      this.column = 1
    } else {
      this.column += 1
    }
    this.offset += c.length
    return !this.isEof()
  }

  protected bumpIf(prefix: string): boolean {
    if (!this.pattern.startsWith(prefix, this.offset)) return false
    for (const _ of prefix) this.bump()
    return true
  }

  protected isLookaroundPrefix(): boolean {
    return this.bumpIf('?=') || this.bumpIf('?!') || this.bumpIf('?<=') || this.bumpIf('?<!')
  }

  protected bumpAndBumpSpace(): boolean {
    if (!this.bump()) return false
    this.bumpSpace()
    return !this.isEof()
  }

  protected bumpSpace(): void {
    if (!this.ignoreWhitespace) return
    while (!this.isEof()) {
      const c = this.char()
      if (this.isWhitespace(c)) {
        this.bump()
      } else if (c === '#') {
        this.bump()
        while (!this.isEof()) {
          const d = this.char()
          this.bump()
          if (d === '\n') break
        }
      } else {
        break
      }
    }
  }

  protected peek(): string | undefined {
    if (this.isEof()) return undefined
    const next = this.offset + this.char().length
    return next < this.pattern.length ? this.charAt(next) : undefined
  }

  protected peekSpace(): string | undefined {
    if (!this.ignoreWhitespace) return this.peek()
    if (this.isEof()) return undefined
    let index = this.offset + this.char().length
    let inComment = false
    while (index < this.pattern.length) {
      const c = this.charAt(index)
      if (this.isWhitespace(c)) {
        // skip
      } else if (!inComment && c === '#') {
        inComment = true
      } else if (inComment && c === '\n') {
        inComment = false
      } else if (!inComment) {
        return c
      }
      index += c.length
    }
    return undefined
  }
}
