import { checkNestLimit } from './nest-limit.js'
import { spanOf } from './regex-cursor.js'
import { RustRegexReason as R, RegexSyntaxError } from './regex-syntax-error.js'
import type { Ast, FlagItem, FlagName, Flags, Group, Span } from './rust-regex-ast.js'
import { ClassParser } from './rust-regex-class-parser.js'

const ALPHABETIC = /^\p{Alphabetic}$/u
const ALPHANUMERIC = /^[\p{Alphabetic}\p{Nd}\p{Nl}\p{No}]$/u

interface Concat {
  span: Span
  asts: Ast[]
}

type GroupState =
  | { type: 'group'; concat: Concat; group: Group; ignoreWhitespace: boolean }
  | { type: 'alternation'; span: Span; asts: Ast[] }

/** Parses Rust `regex` syntax (regex-syntax 0.8, octal off, nest limit 250). Throws `RegexSyntaxError` with Rust's reason and span. */
export function parseRustRegex(pattern: string): Ast {
  return new Parser(pattern).parse()
}

function isCaptureChar(c: string, first: boolean): boolean {
  if (first) return c === '_' || ALPHABETIC.test(c)
  return c === '_' || c === '.' || c === '[' || c === ']' || ALPHANUMERIC.test(c)
}

function concatAst(concat: Concat): Ast {
  if (concat.asts.length === 0) return { kind: 'empty', span: concat.span }
  if (concat.asts.length === 1) return concat.asts[0]!
  return { kind: 'concat', span: concat.span, asts: concat.asts }
}

function alternationAst(span: Span, asts: Ast[]): Ast {
  if (asts.length === 0) return { kind: 'empty', span }
  if (asts.length === 1) return asts[0]!
  return { kind: 'alternation', span, asts }
}

class Parser extends ClassParser {
  #captureIndex = 0
  readonly #captureNames = new Map<string, Span>()
  readonly #groupStack: GroupState[] = []

  parse(): Ast {
    let concat: Concat = { span: this.span(), asts: [] }
    for (;;) {
      this.bumpSpace()
      if (this.isEof()) break
      switch (this.char()) {
        case '(':
          concat = this.pushGroup(concat)
          break
        case ')':
          concat = this.popGroup(concat)
          break
        case '|':
          concat = this.pushAlternate(concat)
          break
        case '[':
          concat.asts.push(this.parseSetClass())
          break
        case '?':
          concat = this.parseUncountedRepetition(concat, 0, 1)
          break
        case '*':
          concat = this.parseUncountedRepetition(concat, 0, null)
          break
        case '+':
          concat = this.parseUncountedRepetition(concat, 1, null)
          break
        case '{':
          concat = this.parseCountedRepetition(concat)
          break
        default:
          concat.asts.push(this.parsePrimitive())
      }
    }
    const ast = this.popGroupEnd(concat)
    checkNestLimit(ast)
    return ast
  }
  // --- groups and alternation ---

  private pushAlternate(concat: Concat): Concat {
    concat.span = spanOf(concat.span.start, this.pos())
    this.pushOrAddAlternation(concat)
    this.bump()
    return { span: this.span(), asts: [] }
  }

  private pushOrAddAlternation(concat: Concat): void {
    const top = this.#groupStack.at(-1)
    if (top?.type === 'alternation') {
      top.asts.push(concatAst(concat))
      return
    }
    this.#groupStack.push({ type: 'alternation', span: spanOf(concat.span.start, this.pos()), asts: [concatAst(concat)] })
  }

  private pushGroup(concat: Concat): Concat {
    const parsed = this.parseGroup()
    if (parsed.type === 'flags') {
      const ignore = flagState(parsed.flags, 'x')
      if (ignore !== undefined) this.ignoreWhitespace = ignore
      concat.asts.push({ kind: 'flags', span: parsed.span, flags: parsed.flags })
      return concat
    }
    const group = parsed.group
    const old = this.ignoreWhitespace
    const next = group.group.type === 'non-capturing' ? (flagState(group.group.flags, 'x') ?? old) : old
    this.#groupStack.push({ type: 'group', concat, group, ignoreWhitespace: old })
    this.ignoreWhitespace = next
    return { span: this.span(), asts: [] }
  }

  private popGroup(groupConcat: Concat): Concat {
    let state = this.#groupStack.pop()
    let alternation: { span: Span; asts: Ast[] } | undefined
    if (state?.type === 'alternation') {
      alternation = state
      state = this.#groupStack.pop()
      if (state?.type !== 'group') throw this.error(this.spanChar(), R.groupUnopened)
    }
    if (state === undefined) throw this.error(this.spanChar(), R.groupUnopened)
    const { concat: priorConcat, group, ignoreWhitespace } = state
    this.ignoreWhitespace = ignoreWhitespace
    groupConcat.span = spanOf(groupConcat.span.start, this.pos())
    this.bump()
    group.span = spanOf(group.span.start, this.pos())
    if (alternation !== undefined) {
      alternation.asts.push(concatAst(groupConcat))
      group.ast = alternationAst(spanOf(alternation.span.start, groupConcat.span.end), alternation.asts)
    } else {
      group.ast = concatAst(groupConcat)
    }
    priorConcat.asts.push(group)
    return priorConcat
  }

  private popGroupEnd(concat: Concat): Ast {
    concat.span = spanOf(concat.span.start, this.pos())
    const state = this.#groupStack.pop()
    let ast: Ast
    if (state === undefined) {
      ast = concatAst(concat)
    } else if (state.type === 'alternation') {
      state.asts.push(concatAst(concat))
      ast = alternationAst(spanOf(state.span.start, this.pos()), state.asts)
    } else {
      throw this.error(state.group.span, R.groupUnclosed)
    }
    const below = this.#groupStack.pop()
    if (below?.type === 'group') throw this.error(below.group.span, R.groupUnclosed)
    return ast
  }

  private parseGroup(): { type: 'flags'; span: Span; flags: Flags } | { type: 'group'; group: Group } {
    const openSpan = this.spanChar()
    this.bump()
    this.bumpSpace()
    if (this.isLookaroundPrefix()) throw this.error(spanOf(openSpan.start, this.pos()), R.unsupportedLookAround)
    const innerSpan = this.span()
    if (this.bumpIf('?P<') || this.bumpIf('?<')) {
      const index = this.nextCaptureIndex()
      const name = this.parseCaptureName()
      return {
        type: 'group',
        group: { kind: 'group', span: openSpan, group: { type: 'capture', index, name }, ast: emptyAst(this.span()) },
      }
    }
    if (this.bumpIf('?')) {
      if (this.isEof()) throw this.error(openSpan, R.groupUnclosed)
      const flags = this.parseFlags()
      const end = this.char()
      this.bump()
      if (end === ')') {
        if (flags.items.length === 0) throw this.error(innerSpan, R.repetitionMissing)
        return { type: 'flags', span: spanOf(openSpan.start, this.pos()), flags }
      }
      return {
        type: 'group',
        group: { kind: 'group', span: openSpan, group: { type: 'non-capturing', flags }, ast: emptyAst(this.span()) },
      }
    }
    const index = this.nextCaptureIndex()
    return { type: 'group', group: { kind: 'group', span: openSpan, group: { type: 'capture', index }, ast: emptyAst(this.span()) } }
  }

  private nextCaptureIndex(): number {
    this.#captureIndex += 1
    return this.#captureIndex
  }

  private parseCaptureName(): string {
    if (this.isEof()) throw this.error(this.span(), R.groupNameUnexpectedEof)
    const start = this.pos()
    for (;;) {
      if (this.char() === '>') break
      if (!isCaptureChar(this.char(), this.offset === start.offset)) throw this.error(this.spanChar(), R.groupNameInvalid)
      if (!this.bump()) break
    }
    const end = this.pos()
    if (this.isEof()) throw this.error(this.span(), R.groupNameUnexpectedEof)
    this.bump()
    const name = this.pattern.slice(start.offset, end.offset)
    if (name.length === 0) throw this.error(spanOf(start, start), R.groupNameEmpty)
    const span = spanOf(start, end)
    const original = this.#captureNames.get(name)
    if (original !== undefined) throw this.error(span, R.groupNameDuplicate, original)
    this.#captureNames.set(name, span)
    return name
  }

  private parseFlags(): Flags {
    const start = this.pos()
    const items: FlagItem[] = []
    let lastNegation: Span | undefined
    while (this.char() !== ':' && this.char() !== ')') {
      const span = this.spanChar()
      if (this.char() === '-') {
        lastNegation = span
        const original = items.find((item) => item.kind === 'negation')
        if (original !== undefined) throw this.error(span, R.flagRepeatedNegation, original.span)
        items.push({ span, kind: 'negation' })
      } else {
        lastNegation = undefined
        const flag = this.parseFlag()
        const original = items.find((item) => item.kind === 'flag' && item.flag === flag)
        if (original !== undefined) throw this.error(span, R.flagDuplicate, original.span)
        items.push({ span, kind: 'flag', flag })
      }
      if (!this.bump()) throw this.error(this.span(), R.flagUnexpectedEof)
    }
    if (lastNegation !== undefined) throw this.error(lastNegation, R.flagDanglingNegation)
    return { span: spanOf(start, this.pos()), items }
  }

  private parseFlag(): FlagName {
    const c = this.char()
    if (c === 'i' || c === 'm' || c === 's' || c === 'U' || c === 'u' || c === 'R' || c === 'x') return c
    throw this.error(this.spanChar(), R.flagUnrecognized)
  }
  // --- repetition ---

  private popRepeatable(concat: Concat): Ast {
    const ast = concat.asts.pop()
    if (ast === undefined || ast.kind === 'empty' || ast.kind === 'flags') throw this.error(this.span(), R.repetitionMissing)
    return ast
  }

  private parseUncountedRepetition(concat: Concat, min: number, max: number | null): Concat {
    const opStart = this.pos()
    const ast = this.popRepeatable(concat)
    let greedy = true
    if (this.bump() && this.char() === '?') {
      greedy = false
      this.bump()
    }
    concat.asts.push({
      kind: 'repetition',
      span: spanOf(ast.span.start, this.pos()),
      opSpan: spanOf(opStart, this.pos()),
      min,
      max,
      greedy,
      ast,
    })
    return concat
  }

  private parseCountedRepetition(concat: Concat): Concat {
    const start = this.pos()
    const ast = this.popRepeatable(concat)
    const unclosed = () => this.error(spanOf(start, this.pos()), R.repetitionCountUnclosed)
    if (!this.bumpAndBumpSpace()) throw unclosed()
    const countStart = this.tryParseDecimal(R.repetitionCountDecimalEmpty)
    if (this.isEof()) throw unclosed()
    let min: number
    let max: number | null
    if (this.char() === ',') {
      if (!this.bumpAndBumpSpace()) throw unclosed()
      if (this.char() !== '}') {
        min = unwrapDecimal(countStart)
        max = unwrapDecimal(this.tryParseDecimal(R.repetitionCountDecimalEmpty))
      } else {
        min = unwrapDecimal(countStart)
        max = null
      }
    } else {
      min = unwrapDecimal(countStart)
      max = min
    }
    if (this.isEof() || this.char() !== '}') throw unclosed()
    let greedy = true
    if (this.bumpAndBumpSpace() && this.char() === '?') {
      greedy = false
      this.bump()
    }
    const opSpan = spanOf(start, this.pos())
    if (max !== null && min > max) throw this.error(opSpan, R.repetitionCountInvalid)
    concat.asts.push({ kind: 'repetition', span: spanOf(ast.span.start, this.pos()), opSpan, min, max, greedy, ast })
    return concat
  }
}

function emptyAst(span: Span): Ast {
  return { kind: 'empty', span }
}

function unwrapDecimal(value: number | RegexSyntaxError): number {
  if (value instanceof RegexSyntaxError) throw value
  return value
}

/** The state of `flag` after these items: `true`, `false` (negated) or `undefined` (not mentioned). */
export function flagState(flags: Flags, flag: FlagName): boolean | undefined {
  let negated = false
  for (const item of flags.items) {
    if (item.kind === 'negation') negated = true
    else if (item.flag === flag) return !negated
  }
  return undefined
}
