import { type Content, unexpected } from './serde-content.js'
import { SerdeError } from './serde-error.js'

const REASON = {
  eofList: 'EOF while parsing a list',
  eofObject: 'EOF while parsing an object',
  eofString: 'EOF while parsing a string',
  eofValue: 'EOF while parsing a value',
  colon: 'expected `:`',
  listCommaOrEnd: 'expected `,` or `]`',
  objectCommaOrEnd: 'expected `,` or `}`',
  ident: 'expected ident',
  value: 'expected value',
  escape: 'invalid escape',
  number: 'invalid number',
  control: 'control character (\\u0000-\\u001F) found while parsing a string',
  keyMustBeString: 'key must be a string',
  loneSurrogate: 'lone leading surrogate in hex escape',
  trailingComma: 'trailing comma',
  trailingCharacters: 'trailing characters',
  hexEscapeEnd: 'unexpected end of hex escape',
  recursion: 'recursion limit exceeded',
} as const

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const MINUS = 0x2d
const U64_MAX = 2n ** 64n - 1n
const I64_MIN = -(2n ** 63n)

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39

/** What a typed value accepts; every other shape is an `invalid type` error naming `expecting`. */
export interface Visitor<T> {
  expecting: string
  visitMap?(map: MapAccess): T
  visitSeq?(seq: SeqAccess): T
  /** `deserialize_any` only: a scalar, or a number that is not an integer (it arrives as a map). */
  visitOther?(content: Content): T
}

export interface MapAccess {
  /** The next key, or undefined at `}`. Call `value` (or `skipValue`) before the next key. */
  nextKey(): string | undefined
  value<T>(read: () => T): T
  skipValue(): void
}

export interface SeqAccess {
  /** Reads the next element with `read`, or returns undefined at `]`. */
  next<T>(read: () => T): T | undefined
}

/**
 * A byte-for-byte model of serde_json's `Deserializer<StrRead>`: the same tokenizer, the same error codes and
 * the same line/column rules (columns count bytes; a syntax error points at the offending byte, an error
 * raised by a visitor points just past what had been consumed when it left the enclosing JSON value).
 */
export class JsonReader {
  private index = 0
  private remainingDepth = 128
  private readonly decoder = new TextDecoder()

  constructor(private readonly bytes: Uint8Array) {}

  // ---- positions and errors

  private errorAt(reason: string, at: number): SerdeError {
    let line = 1
    let lineStart = 0
    for (let i = 0; i < at; i++) {
      if (this.bytes[i] === 0x0a) {
        line++
        lineStart = i + 1
      }
    }
    return new SerdeError(reason).at(line, at - lineStart)
  }

  private error(reason: string): SerdeError {
    return this.errorAt(reason, this.index)
  }

  private peekError(reason: string): SerdeError {
    return this.errorAt(reason, Math.min(this.index + 1, this.bytes.length))
  }

  private fixPosition(err: unknown): unknown {
    if (err instanceof SerdeError && err.line === 0) {
      const { line, column } = this.error(err.reason)
      err.at(line, column)
    }
    return err
  }

  // ---- bytes

  private peek(): number | undefined {
    return this.index < this.bytes.length ? this.bytes[this.index] : undefined
  }

  private peekOrNull(): number {
    return this.peek() ?? 0
  }

  private next(): number | undefined {
    const b = this.peek()
    if (b !== undefined) this.index++
    return b
  }

  private parseWhitespace(): number | undefined {
    for (;;) {
      const b = this.peek()
      if (b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d) this.index++
      else return b
    }
  }

  private parseIdent(rest: string): void {
    for (let i = 0; i < rest.length; i++) {
      const b = this.next()
      if (b === undefined) throw this.error(REASON.eofValue)
      if (b !== rest.charCodeAt(i)) throw this.error(REASON.ident)
    }
  }

  // ---- strings (the opening quote is already consumed)

  private parseStr(): string {
    let out = ''
    let start = this.index
    for (;;) {
      if (this.index === this.bytes.length) throw this.error(REASON.eofString)
      const b = this.bytes[this.index]!
      if (b === QUOTE) {
        out += this.decoder.decode(this.bytes.subarray(start, this.index))
        this.index++
        return out
      }
      if (b === BACKSLASH) {
        out += this.decoder.decode(this.bytes.subarray(start, this.index))
        this.index++
        out += this.parseEscape()
        start = this.index
      } else if (b < 0x20) {
        this.index++
        throw this.error(REASON.control)
      } else {
        this.index++
      }
    }
  }

  private ignoreStr(): void {
    for (;;) {
      if (this.index === this.bytes.length) throw this.error(REASON.eofString)
      const b = this.bytes[this.index]!
      if (b === QUOTE) {
        this.index++
        return
      }
      if (b === BACKSLASH) {
        this.index++
        this.ignoreEscape()
      } else if (b < 0x20) {
        throw this.error(REASON.control)
      } else {
        this.index++
      }
    }
  }

  private parseEscape(): string {
    const ch = this.next()
    if (ch === undefined) throw this.error(REASON.eofString)
    switch (String.fromCharCode(ch)) {
      case '"':
        return '"'
      case '\\':
        return '\\'
      case '/':
        return '/'
      case 'b':
        return '\b'
      case 'f':
        return '\f'
      case 'n':
        return '\n'
      case 'r':
        return '\r'
      case 't':
        return '\t'
      case 'u':
        return this.parseUnicodeEscape()
      default:
        throw this.error(REASON.escape)
    }
  }

  private ignoreEscape(): void {
    const ch = this.next()
    if (ch === undefined) throw this.error(REASON.eofString)
    if (ch === 0x75) this.decodeHexEscape()
    else if (!'"\\/bfnrt'.includes(String.fromCharCode(ch))) throw this.error(REASON.escape)
  }

  private decodeHexEscape(): number {
    if (this.bytes.length - this.index < 4) {
      this.index = this.bytes.length
      throw this.error(REASON.eofString)
    }
    const hex = this.decoder.decode(this.bytes.subarray(this.index, this.index + 4))
    this.index += 4
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.error(REASON.escape)
    return Number.parseInt(hex, 16)
  }

  private parseUnicodeEscape(): string {
    const lead = this.decodeHexEscape()
    if (lead >= 0xdc00 && lead <= 0xdfff) throw this.error(REASON.loneSurrogate)
    if (lead < 0xd800 || lead > 0xdbff) return String.fromCodePoint(lead)
    for (const expected of [BACKSLASH, 0x75]) {
      const b = this.next()
      if (b === undefined) throw this.error(REASON.eofString)
      if (b !== expected) throw this.error(REASON.hexEscapeEnd)
    }
    const trail = this.decodeHexEscape()
    if (trail < 0xdc00 || trail > 0xdfff) throw this.error(REASON.loneSurrogate)
    return String.fromCodePoint(0x10000 + ((lead - 0xd800) << 10) + (trail - 0xdc00))
  }

  // ---- numbers (a leading '-' is already consumed)

  /**
   * Codex builds serde_json with `arbitrary_precision`: an integer that fits u64 (i64 when negative) is an
   * integer, any other number is kept as its text and buffers as a map (so `1.5` is "invalid type: map").
   */
  private parseNumber(positive: boolean): { content: Content; integer: boolean } {
    const start = positive ? this.index : this.index - 1
    const first = this.next()
    if (first === 0x30) {
      if (isDigit(this.peek())) throw this.peekError(REASON.number)
    } else if (isDigit(first)) {
      while (isDigit(this.peek())) this.index++
    } else {
      throw this.error(REASON.number)
    }
    let integer = true
    if (this.peekOrNull() === 0x2e) {
      integer = false
      this.index++
      if (!isDigit(this.peek())) throw this.peekError(this.peek() === undefined ? REASON.eofValue : REASON.number)
      while (isDigit(this.peek())) this.index++
    }
    if (this.peekOrNull() === 0x65 || this.peekOrNull() === 0x45) {
      integer = false
      this.skipExponent()
    }
    const text = this.decoder.decode(this.bytes.subarray(start, this.index))
    if (integer) {
      const big = BigInt(text)
      if (positive ? big <= U64_MAX : big >= I64_MIN) return { content: { kind: positive ? 'u64' : 'i64', value: Number(big) }, integer }
    }
    return { content: { kind: 'map', entries: [['$serde_json::private::Number', { kind: 'string', value: text }]] }, integer: false }
  }

  private skipExponent(): void {
    this.index++
    if (this.peekOrNull() === 0x2b || this.peekOrNull() === MINUS) this.index++
    if (!isDigit(this.next())) throw this.error(REASON.number)
    while (isDigit(this.peek())) this.index++
  }

  private ignoreNumber(): void {
    const first = this.next()
    if (first === 0x30) {
      if (isDigit(this.peek())) throw this.peekError(REASON.number)
    } else if (isDigit(first)) {
      while (isDigit(this.peek())) this.index++
    } else {
      throw this.error(REASON.number)
    }
    if (this.peekOrNull() === 0x2e) {
      this.index++
      if (!isDigit(this.peek())) throw this.peekError(REASON.number)
      while (isDigit(this.peek())) this.index++
    }
    if (this.peekOrNull() === 0x65 || this.peekOrNull() === 0x45) this.skipExponent()
  }

  // ---- containers

  private enter<T>(visit: () => T, end: () => void): T {
    if (--this.remainingDepth === 0) throw this.peekError(REASON.recursion)
    this.index++
    let result: T | undefined
    let failure: unknown
    let failed = false
    try {
      result = visit()
    } catch (err) {
      failure = err
      failed = true
    }
    this.remainingDepth++
    // serde_json runs end_seq/end_map even after the visitor failed; the visitor's error wins.
    try {
      end()
    } catch (err) {
      if (!failed) throw err
    }
    if (failed) throw failure
    return result as T
  }

  private endSeq(): void {
    const b = this.parseWhitespace()
    if (b === CLOSE_BRACKET) {
      this.index++
      return
    }
    if (b === COMMA) {
      this.index++
      throw this.peekError(this.parseWhitespace() === CLOSE_BRACKET ? REASON.trailingComma : REASON.trailingCharacters)
    }
    throw this.peekError(b === undefined ? REASON.eofList : REASON.trailingCharacters)
  }

  private endMap(): void {
    const b = this.parseWhitespace()
    if (b === CLOSE_BRACE) {
      this.index++
      return
    }
    if (b === COMMA) throw this.peekError(REASON.trailingComma)
    throw this.peekError(b === undefined ? REASON.eofObject : REASON.trailingCharacters)
  }

  private seqAccess(): SeqAccess {
    let first = true
    const hasNext = (): boolean => {
      let b = this.parseWhitespace()
      if (b === CLOSE_BRACKET) return false
      if (b === COMMA && !first) {
        this.index++
        b = this.parseWhitespace()
      } else if (b !== undefined) {
        if (!first) throw this.peekError(REASON.listCommaOrEnd)
        first = false
      } else {
        throw this.peekError(REASON.eofList)
      }
      if (b === CLOSE_BRACKET) throw this.peekError(REASON.trailingComma)
      if (b === undefined) throw this.peekError(REASON.eofValue)
      return true
    }
    return { next: (read) => (hasNext() ? read() : undefined) }
  }

  private mapAccess(): MapAccess {
    let first = true
    const hasNextKey = (): boolean => {
      let b = this.parseWhitespace()
      if (b === CLOSE_BRACE) return false
      if (b === COMMA && !first) {
        this.index++
        b = this.parseWhitespace()
      } else if (b !== undefined) {
        if (!first) throw this.peekError(REASON.objectCommaOrEnd)
        first = false
      } else {
        throw this.peekError(REASON.eofObject)
      }
      if (b === QUOTE) return true
      if (b === CLOSE_BRACE) throw this.peekError(REASON.trailingComma)
      if (b === undefined) throw this.peekError(REASON.eofValue)
      throw this.peekError(REASON.keyMustBeString)
    }
    const colon = (): void => {
      const b = this.parseWhitespace()
      if (b === COLON) this.index++
      else throw this.peekError(b === undefined ? REASON.eofObject : REASON.colon)
    }
    return {
      nextKey: () => {
        if (!hasNextKey()) return undefined
        this.index++
        return this.parseStr()
      },
      value: (read) => {
        colon()
        return read()
      },
      skipValue: () => {
        colon()
        this.ignoreValue()
      },
    }
  }

  /** serde_json's `peek_invalid_type`: scalars are consumed first, so the error points past them. */
  private peekInvalidType(expecting: string): unknown {
    const b = this.peekOrNull()
    let found: string
    if (b === 0x6e) {
      this.index++
      this.parseIdent('ull')
      found = 'null'
    } else if (b === 0x74) {
      this.index++
      this.parseIdent('rue')
      found = 'boolean `true`'
    } else if (b === 0x66) {
      this.index++
      this.parseIdent('alse')
      found = 'boolean `false`'
    } else if (b === MINUS || isDigit(b)) {
      if (b === MINUS) this.index++
      const number = this.parseNumber(b !== MINUS)
      found = number.integer ? unexpected(number.content) : 'number'
    } else if (b === QUOTE) {
      this.index++
      found = unexpected({ kind: 'string', value: this.parseStr() })
    } else if (b === OPEN_BRACKET) {
      found = 'sequence'
    } else if (b === OPEN_BRACE) {
      found = 'map'
    } else {
      return this.peekError(REASON.value)
    }
    return this.fixPosition(new SerdeError(`invalid type: ${found}, expected ${expecting}`))
  }

  // ---- deserializers

  /** `deserialize_any` into a buffered value (serde's ContentVisitor). */
  content(): Content {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    try {
      switch (b) {
        case 0x6e:
          this.index++
          this.parseIdent('ull')
          return { kind: 'null' }
        case 0x74:
          this.index++
          this.parseIdent('rue')
          return { kind: 'bool', value: true }
        case 0x66:
          this.index++
          this.parseIdent('alse')
          return { kind: 'bool', value: false }
        case MINUS:
          this.index++
          return this.parseNumber(false).content
        case QUOTE:
          this.index++
          return { kind: 'string', value: this.parseStr() }
        case OPEN_BRACKET:
          return this.enter(
            () => {
              const seq = this.seqAccess()
              const items: Content[] = []
              for (let item = seq.next(() => this.content()); item !== undefined; item = seq.next(() => this.content())) items.push(item)
              return { kind: 'seq', items } as Content
            },
            () => this.endSeq(),
          )
        case OPEN_BRACE:
          return this.enter(
            () => {
              const map = this.mapAccess()
              const entries: [string, Content][] = []
              for (let key = map.nextKey(); key !== undefined; key = map.nextKey()) entries.push([key, map.value(() => this.content())])
              return { kind: 'map', entries } as Content
            },
            () => this.endMap(),
          )
        default:
          if (isDigit(b)) return this.parseNumber(true).content
          throw this.peekError(REASON.value)
      }
    } catch (err) {
      throw this.fixPosition(err)
    }
  }

  /** `deserialize_any` with a typed visitor: scalars are invalid types, as are shapes the visitor lacks. */
  any<T>(visitor: Visitor<T>): T {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    if (b !== OPEN_BRACKET && b !== OPEN_BRACE) {
      const found = this.content()
      try {
        if (visitor.visitOther) return visitor.visitOther(found)
        throw new SerdeError(`invalid type: ${unexpected(found)}, expected ${visitor.expecting}`)
      } catch (err) {
        throw this.fixPosition(err)
      }
    }
    return this.container(b, visitor)
  }

  /** `deserialize_struct`: a map or a sequence (fields in order); anything else is `peek_invalid_type`. */
  struct<T>(visitor: Visitor<T>): T {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    if (b !== OPEN_BRACKET && b !== OPEN_BRACE) throw this.peekInvalidType(visitor.expecting)
    return this.container(b, visitor)
  }

  /** `deserialize_seq`. */
  seq<T>(expecting: string, visitSeq: (seq: SeqAccess) => T): T {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    if (b !== OPEN_BRACKET) throw this.peekInvalidType(expecting)
    return this.container(b, { expecting, visitSeq })
  }

  private container<T>(b: number, visitor: Visitor<T>): T {
    const refuse = (found: string) => () => {
      throw new SerdeError(`invalid type: ${found}, expected ${visitor.expecting}`)
    }
    try {
      if (b === OPEN_BRACKET) {
        return this.enter(
          () => (visitor.visitSeq ?? refuse('sequence'))(this.seqAccess()),
          () => this.endSeq(),
        )
      }
      return this.enter(
        () => (visitor.visitMap ?? refuse('map'))(this.mapAccess()),
        () => this.endMap(),
      )
    } catch (err) {
      throw this.fixPosition(err)
    }
  }

  /** `deserialize_str`: `visit` runs inside the string's frame, so its errors point just past the string. */
  str<T = string>(expecting: string, visit: (value: string) => T = (value) => value as T): T {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    try {
      if (b !== QUOTE) throw this.peekInvalidType(expecting)
      this.index++
      return visit(this.parseStr())
    } catch (err) {
      throw this.fixPosition(err)
    }
  }

  option<T>(read: () => T): T | undefined {
    if (this.parseWhitespace() === 0x6e) {
      this.index++
      this.parseIdent('ull')
      return undefined
    }
    return read()
  }

  /** serde_json's `ignore_value`, which reports a trailing comma as `expected value` / `key must be a string`. */
  ignoreValue(): void {
    const b = this.parseWhitespace()
    if (b === undefined) throw this.peekError(REASON.eofValue)
    switch (b) {
      case 0x6e:
        this.index++
        this.parseIdent('ull')
        return
      case 0x74:
        this.index++
        this.parseIdent('rue')
        return
      case 0x66:
        this.index++
        this.parseIdent('alse')
        return
      case MINUS:
        this.index++
        this.ignoreNumber()
        return
      case QUOTE:
        this.index++
        this.ignoreStr()
        return
      case OPEN_BRACKET: {
        this.index++
        const first = this.parseWhitespace()
        if (first === CLOSE_BRACKET) {
          this.index++
          return
        }
        if (first === undefined) throw this.peekError(REASON.eofList)
        for (;;) {
          this.ignoreValue()
          const after = this.parseWhitespace()
          if (after !== CLOSE_BRACKET && after !== COMMA) throw this.peekError(after === undefined ? REASON.eofList : REASON.listCommaOrEnd)
          this.index++
          if (after === CLOSE_BRACKET) return
        }
      }
      case OPEN_BRACE: {
        this.index++
        if (this.parseWhitespace() === CLOSE_BRACE) {
          this.index++
          return
        }
        for (;;) {
          const key = this.parseWhitespace()
          if (key !== QUOTE) throw this.peekError(key === undefined ? REASON.eofObject : REASON.keyMustBeString)
          this.index++
          this.ignoreStr()
          const colon = this.parseWhitespace()
          if (colon !== COLON) throw this.peekError(colon === undefined ? REASON.eofObject : REASON.colon)
          this.index++
          this.ignoreValue()
          const after = this.parseWhitespace()
          if (after !== CLOSE_BRACE && after !== COMMA)
            throw this.peekError(after === undefined ? REASON.eofObject : REASON.objectCommaOrEnd)
          this.index++
          if (after === CLOSE_BRACE) return
        }
      }
      default:
        if (!isDigit(b)) throw this.peekError(REASON.value)
        this.ignoreNumber()
    }
  }

  /** `Deserializer::end`: only whitespace may follow the value. */
  end(): void {
    if (this.parseWhitespace() !== undefined) throw this.peekError(REASON.trailingCharacters)
  }
}
