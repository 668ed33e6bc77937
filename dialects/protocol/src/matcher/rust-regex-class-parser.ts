import { spanOf } from './regex-cursor.js'
import { RustRegexReason as R, type RegexSyntaxError } from './regex-syntax-error.js'
import type {
  AsciiClassName,
  ClassAscii,
  ClassBracketed,
  ClassSet,
  ClassSetItem,
  ClassSetOperator,
  ClassUnion,
  Literal,
} from './rust-regex-ast.js'
import { EscapeParser, type Primitive } from './rust-regex-escape-parser.js'

const ASCII_CLASS_NAMES = new Set<string>([
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
])

type ClassState = { type: 'open'; union: ClassUnion; set: ClassBracketed } | { type: 'op'; op: ClassSetOperator; lhs: ClassSet }

function unionItem(union: ClassUnion): ClassSetItem {
  if (union.items.length === 0) return { kind: 'empty', span: union.span }
  if (union.items.length === 1) return union.items[0]!
  return union
}

function pushUnion(union: ClassUnion, item: ClassSetItem): void {
  if (union.items.length === 0) union.span = spanOf(item.span.start, union.span.end)
  union.span = spanOf(union.span.start, item.span.end)
  union.items.push(item)
}

/** Parses bracketed classes: nesting, ranges, `[:ascii:]` classes and the `&&`, `--`, `~~` set operations. */
export class ClassParser extends EscapeParser {
  private readonly classStack: ClassState[] = []

  protected parseSetClass(): ClassBracketed {
    let union: ClassUnion = { kind: 'union', span: this.span(), items: [] }
    for (;;) {
      this.bumpSpace()
      if (this.isEof()) throw this.unclosedClassError()
      const c = this.char()
      if (c === '[') {
        if (this.classStack.length > 0) {
          const ascii = this.maybeParseAsciiClass()
          if (ascii !== undefined) {
            pushUnion(union, ascii)
            continue
          }
        }
        union = this.pushClassOpen(union)
      } else if (c === ']') {
        const popped = this.popClass(union)
        if (popped.type === 'done') return popped.set
        union = popped.union
      } else if (c === '&' && this.peek() === '&') {
        this.bumpIf('&&')
        union = this.pushClassOp('intersection', union)
      } else if (c === '-' && this.peek() === '-') {
        this.bumpIf('--')
        union = this.pushClassOp('difference', union)
      } else if (c === '~' && this.peek() === '~') {
        this.bumpIf('~~')
        union = this.pushClassOp('symmetric-difference', union)
      } else {
        pushUnion(union, this.parseSetClassRange())
      }
    }
  }

  private parseSetClassRange(): ClassSetItem {
    const first = this.parseSetClassItem()
    this.bumpSpace()
    if (this.isEof()) throw this.unclosedClassError()
    if (this.char() !== '-' || this.peekSpace() === ']' || this.peekSpace() === '-') return this.intoClassSetItem(first)
    if (!this.bumpAndBumpSpace()) throw this.unclosedClassError()
    const second = this.parseSetClassItem()
    const span = spanOf(first.span.start, second.span.end)
    const start = this.intoClassLiteral(first)
    const end = this.intoClassLiteral(second)
    if (start.c > end.c) throw this.error(span, R.classRangeInvalid)
    return { kind: 'range', span, start, end }
  }

  private parseSetClassItem(): Primitive {
    if (this.char() === '\\') return this.parseEscape()
    const span = this.spanChar()
    const c = this.char().codePointAt(0)!
    this.bump()
    return { kind: 'literal', span, c, hexByte: false }
  }

  private intoClassSetItem(primitive: Primitive): ClassSetItem {
    if (primitive.kind === 'literal' || primitive.kind === 'perl' || primitive.kind === 'unicode') return primitive
    throw this.error(primitive.span, R.classEscapeInvalid)
  }

  private intoClassLiteral(primitive: Primitive): Literal {
    if (primitive.kind === 'literal') return primitive
    throw this.error(primitive.span, R.classRangeLiteral)
  }

  private parseSetClassOpen(): { set: ClassBracketed; union: ClassUnion } {
    const start = this.pos()
    if (!this.bumpAndBumpSpace()) throw this.error(spanOf(start, this.pos()), R.classUnclosed)
    let negated = false
    if (this.char() === '^') {
      if (!this.bumpAndBumpSpace()) throw this.error(spanOf(start, this.pos()), R.classUnclosed)
      negated = true
    }
    const union: ClassUnion = { kind: 'union', span: this.span(), items: [] }
    while (this.char() === '-') {
      pushUnion(union, { kind: 'literal', span: this.spanChar(), c: 0x2d, hexByte: false })
      if (!this.bumpAndBumpSpace()) throw this.error(spanOf(start, start), R.classUnclosed)
    }
    if (union.items.length === 0 && this.char() === ']') {
      pushUnion(union, { kind: 'literal', span: this.spanChar(), c: 0x5d, hexByte: false })
      if (!this.bumpAndBumpSpace()) throw this.error(spanOf(start, this.pos()), R.classUnclosed)
    }
    const set: ClassBracketed = {
      kind: 'bracketed',
      span: spanOf(start, this.pos()),
      negated,
      set: { kind: 'empty', span: spanOf(union.span.start, union.span.start) },
    }
    return { set, union }
  }

  private maybeParseAsciiClass(): ClassAscii | undefined {
    const start = this.pos()
    const fail = () => {
      this.setPos(start)
      return undefined
    }
    let negated = false
    if (!this.bump() || this.char() !== ':') return fail()
    if (!this.bump()) return fail()
    if (this.char() === '^') {
      negated = true
      if (!this.bump()) return fail()
    }
    const nameStart = this.offset
    while (this.char() !== ':' && this.bump()) {}
    if (this.isEof()) return fail()
    const name = this.pattern.slice(nameStart, this.offset)
    if (!this.bumpIf(':]')) return fail()
    if (!ASCII_CLASS_NAMES.has(name)) return fail()
    return { kind: 'ascii', span: spanOf(start, this.pos()), name: name as AsciiClassName, negated }
  }

  private pushClassOpen(parent: ClassUnion): ClassUnion {
    const { set, union } = this.parseSetClassOpen()
    this.classStack.push({ type: 'open', union: parent, set })
    return union
  }

  private popClass(nested: ClassUnion): { type: 'done'; set: ClassBracketed } | { type: 'nested'; union: ClassUnion } {
    const previous = this.popClassOp(unionItem(nested))
    const state = this.classStack.pop()
    if (state?.type !== 'open') throw new Error('unexpected character class parser state')
    this.bump()
    state.set.span = spanOf(state.set.span.start, this.pos())
    state.set.set = previous
    if (this.classStack.length === 0) return { type: 'done', set: state.set }
    pushUnion(state.union, state.set)
    return { type: 'nested', union: state.union }
  }

  private unclosedClassError(): RegexSyntaxError {
    for (let i = this.classStack.length - 1; i >= 0; i--) {
      const state = this.classStack[i]!
      if (state.type === 'open') return this.error(state.set.span, R.classUnclosed)
    }
    throw new Error('no open character class found')
  }

  private pushClassOp(op: ClassSetOperator, next: ClassUnion): ClassUnion {
    const lhs = this.popClassOp(unionItem(next))
    this.classStack.push({ type: 'op', op, lhs })
    return { kind: 'union', span: this.span(), items: [] }
  }

  private popClassOp(rhs: ClassSet): ClassSet {
    const state = this.classStack.at(-1)
    if (state?.type !== 'op') return rhs
    this.classStack.pop()
    return { kind: 'binary-op', span: spanOf(state.lhs.span.start, rhs.span.end), op: state.op, lhs: state.lhs, rhs }
  }
}
