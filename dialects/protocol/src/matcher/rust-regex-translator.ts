import type { CaseFold, JsClass, JsNode } from './js-regex-ir.js'
import { RustRegexReason as R, RegexSyntaxError } from './regex-syntax-error.js'
import type { AsciiClassName, Assertion, Ast, ClassPerl, ClassSet, ClassUnicode, Flags, Span } from './rust-regex-ast.js'
import { resolveUnicodeProperty } from './unicode-property.js'

interface FlagState {
  i: boolean
  m: boolean
  s: boolean
  U: boolean
  u: boolean
  R: boolean
}

const ASCII_CLASSES: Record<AsciiClassName, ReadonlyArray<readonly [number, number]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
}

/** Rust's Unicode `\w` (UTS#18 Annex C). */
export const UNICODE_WORD_PROPERTIES = '\\p{Alphabetic}\\p{gc=Mark}\\p{gc=Decimal_Number}\\p{gc=Connector_Punctuation}\\p{Join_Control}'
const UNICODE_WORD = `[${UNICODE_WORD_PROPERTIES}]`
const ASCII_WORD = '[0-9A-Za-z_]'

const JS_GROUP_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u

/** Translates a parsed Rust pattern into the JavaScript IR, raising Rust's translation errors (Unicode mode, properties). */
export function translateAst(ast: Ast): JsNode {
  return new Translator().node(ast)
}

function error(span: Span, reason: string): RegexSyntaxError {
  return new RegexSyntaxError(reason, span)
}

function withFlags(state: FlagState, flags: Flags): FlagState {
  const next = { ...state }
  let enable = true
  for (const item of flags.items) {
    if (item.kind === 'negation') enable = false
    else if (item.flag !== 'x') next[item.flag] = enable
  }
  return next
}

class Translator {
  #flags: FlagState = { i: false, m: false, s: false, U: false, u: true, R: false }

  node(ast: Ast): JsNode {
    switch (ast.kind) {
      case 'empty':
        return { type: 'sequence', items: [] }
      case 'flags':
        this.#flags = withFlags(this.#flags, ast.flags)
        return { type: 'sequence', items: [] }
      case 'literal':
        if (!this.#flags.u && ast.hexByte && ast.c > 0x7f) throw error(ast.span, R.invalidUtf8)
        return { type: 'literal', cp: ast.c, fold: this.fold() }
      case 'dot':
        if (!this.#flags.u) throw error(ast.span, R.invalidUtf8)
        return { type: 'raw', source: this.#flags.s ? '[^]' : this.#flags.R ? '[^\\n\\r]' : '[^\\n]', atom: true, caseSensitive: false }
      case 'assertion':
        return this.assertion(ast)
      case 'perl':
        return { type: 'class', cls: this.perl(ast) }
      case 'unicode':
        return { type: 'class', cls: this.unicode(ast) }
      case 'bracketed': {
        if (!this.#flags.u) return { type: 'class', cls: { type: 'ranges', ranges: toRanges(this.byteBracketed(ast)), fold: 'none' } }
        const inner = this.classSet(ast.set)
        return { type: 'class', cls: ast.negated ? { type: 'negate', inner } : inner }
      }
      case 'repetition': {
        const body = this.node(ast.ast)
        return { type: 'repeat', min: ast.min, max: ast.max, greedy: ast.greedy !== this.#flags.U, body }
      }
      case 'group': {
        const saved = this.#flags
        if (ast.group.type === 'non-capturing') this.#flags = withFlags(this.#flags, ast.group.flags)
        const body = this.node(ast.ast)
        this.#flags = saved
        if (ast.group.type === 'non-capturing') return { type: 'group', capture: false, name: undefined, body }
        const name = ast.group.name !== undefined && JS_GROUP_NAME.test(ast.group.name) ? ast.group.name : undefined
        return { type: 'group', capture: true, name, body }
      }
      case 'alternation':
        return { type: 'alternation', items: ast.asts.map((child) => this.node(child)) }
      case 'concat':
        return { type: 'sequence', items: ast.asts.map((child) => this.node(child)) }
    }
  }

  private fold(): CaseFold {
    if (!this.#flags.i) return 'none'
    return this.#flags.u ? 'unicode' : 'ascii'
  }

  private assertion(ast: Assertion): JsNode {
    const { m, R: crlf, u } = this.#flags
    const raw = (source: string, caseSensitive = false): JsNode => ({ type: 'raw', source, atom: false, caseSensitive })
    const w = u ? UNICODE_WORD : ASCII_WORD
    switch (ast.assertion) {
      case 'start-line':
        if (!m) return raw('^')
        // CRLF mode: a line starts after \r or \n, but never between \r and \n.
        return raw(crlf ? '(?<![^\\n\\r])(?!(?<=\\r)\\n)' : '(?<![^\\n])')
      case 'end-line':
        if (!m) return raw('$')
        return raw(crlf ? '(?![^\\n\\r])(?!(?<=\\r)\\n)' : '(?![^\\n])')
      case 'start-text':
        return raw('^')
      case 'end-text':
        return raw('$')
      case 'word-boundary':
        return raw(`(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`, !u)
      case 'not-word-boundary':
        return raw(`(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`, !u)
      case 'word-start':
        return raw(`(?<!${w})(?=${w})`, !u)
      case 'word-end':
        return raw(`(?<=${w})(?!${w})`, !u)
      case 'word-start-half':
        return raw(`(?<!${w})`, !u)
      case 'word-end-half':
        return raw(`(?!${w})`, !u)
    }
  }

  private perl(ast: ClassPerl): JsClass {
    if (!this.#flags.u) {
      if (ast.negated) throw error(ast.span, R.invalidUtf8)
      return { type: 'ranges', ranges: [...ASCII_CLASSES[ast.perl]], fold: 'none' }
    }
    const source = ast.perl === 'digit' ? '\\p{gc=Decimal_Number}' : ast.perl === 'space' ? '\\p{White_Space}' : UNICODE_WORD_PROPERTIES
    const cls: JsClass = { type: 'property', source, fold: 'none', closed: true }
    return ast.negated ? { type: 'negate', inner: cls } : cls
  }

  private unicode(ast: ClassUnicode): JsClass {
    if (!this.#flags.u) throw error(ast.span, R.unicodeNotAllowed)
    const resolved = resolveUnicodeProperty(ast.query)
    if (!resolved.ok) throw error(ast.span, resolved.reason)
    const cls: JsClass = { type: 'property', source: `\\p{${resolved.property}}`, fold: this.fold(), closed: false }
    const negated = ast.negated !== (ast.query.type === 'named-value' && ast.query.op === 'not-equal')
    return negated ? { type: 'negate', inner: cls } : cls
  }

  private classSet(set: ClassSet): JsClass {
    const fold = this.fold()
    switch (set.kind) {
      case 'empty':
        return { type: 'ranges', ranges: [], fold }
      case 'literal':
        return { type: 'ranges', ranges: [[set.c, set.c]], fold }
      case 'range':
        return { type: 'ranges', ranges: [[set.start.c, set.end.c]], fold }
      case 'ascii': {
        const cls: JsClass = { type: 'ranges', ranges: [...ASCII_CLASSES[set.name]], fold }
        return set.negated ? { type: 'negate', inner: cls } : cls
      }
      case 'unicode':
        return this.unicode(set)
      case 'perl':
        return this.perl(set)
      case 'bracketed': {
        const inner = this.classSet(set.set)
        return set.negated ? { type: 'negate', inner } : inner
      }
      case 'union':
        return { type: 'union', items: set.items.map((item) => this.classSet(item)) }
      case 'binary-op':
        return { type: 'op', op: set.op, lhs: this.classSet(set.lhs), rhs: this.classSet(set.rhs) }
    }
  }

  /** Without Unicode mode a class is a set of bytes, and must stay within ASCII to be valid UTF-8. */
  private byteBracketed(ast: { span: Span; negated: boolean; set: ClassSet }): boolean[] {
    const bytes = this.byteSet(ast.set)
    this.finishByteSet(bytes, ast.negated, ast.span)
    return bytes
  }

  private finishByteSet(bytes: boolean[], negated: boolean, span: Span): void {
    if (this.#flags.i) foldBytes(bytes)
    if (negated) for (let b = 0; b < 256; b++) bytes[b] = !bytes[b]
    if (bytes.some((present, b) => present && b > 0x7f)) throw error(span, R.invalidUtf8)
  }

  private byteSet(set: ClassSet): boolean[] {
    const bytes: boolean[] = new Array(256).fill(false)
    const add = (lo: number, hi: number) => {
      for (let b = lo; b <= hi; b++) bytes[b] = true
    }
    const merge = (other: boolean[]) => {
      for (let b = 0; b < 256; b++) if (other[b]) bytes[b] = true
    }
    const literalByte = (literal: { span: Span; c: number; hexByte: boolean }) => {
      if (literal.c <= 0x7f) return literal.c
      throw error(literal.span, literal.hexByte ? R.invalidUtf8 : R.unicodeNotAllowed)
    }
    switch (set.kind) {
      case 'empty':
        break
      case 'literal': {
        const b = literalByte(set)
        add(b, b)
        break
      }
      case 'range':
        add(literalByte(set.start), literalByte(set.end))
        break
      case 'ascii': {
        const inner: boolean[] = new Array(256).fill(false)
        for (const [lo, hi] of ASCII_CLASSES[set.name]) for (let b = lo; b <= hi; b++) inner[b] = true
        this.finishByteSet(inner, set.negated, set.span)
        merge(inner)
        break
      }
      case 'unicode':
        this.unicode(set)
        break
      case 'perl':
        for (const [lo, hi] of ASCII_CLASSES[set.perl]) add(lo, hi)
        if (set.negated) throw error(set.span, R.invalidUtf8)
        break
      case 'bracketed':
        merge(this.byteBracketed(set))
        break
      case 'union':
        for (const item of set.items) merge(this.byteSet(item))
        break
      case 'binary-op': {
        const lhs = this.byteSet(set.lhs)
        const rhs = this.byteSet(set.rhs)
        if (this.#flags.i) {
          foldBytes(lhs)
          foldBytes(rhs)
        }
        for (let b = 0; b < 256; b++) {
          const l = lhs[b]!
          const r = rhs[b]!
          bytes[b] = set.op === 'intersection' ? l && r : set.op === 'difference' ? l && !r : l !== r
        }
        break
      }
    }
    return bytes
  }
}

function foldBytes(bytes: boolean[]): void {
  for (let b = 0x41; b <= 0x5a; b++) {
    if (bytes[b] || bytes[b + 0x20]) {
      bytes[b] = true
      bytes[b + 0x20] = true
    }
  }
}

function toRanges(bytes: boolean[]): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = []
  let start = -1
  for (let b = 0; b <= 256; b++) {
    if (b < 256 && bytes[b]) {
      if (start < 0) start = b
    } else if (start >= 0) {
      ranges.push([start, b - 1])
      start = -1
    }
  }
  return ranges
}
