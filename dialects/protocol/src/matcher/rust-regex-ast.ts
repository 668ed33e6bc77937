/** The abstract syntax of a Rust `regex` pattern, shaped like `regex-syntax`'s AST so errors and spans line up with Rust's. */

export interface Position {
  /** UTF-16 offset into the pattern. */
  offset: number
  /** 1-based. */
  line: number
  /** 1-based, counted in code points (as Rust counts `char`s). */
  column: number
}

export interface Span {
  start: Position
  end: Position
}

export type FlagName = 'i' | 'm' | 's' | 'U' | 'u' | 'R' | 'x'

export type FlagItem = { span: Span; kind: 'negation' } | { span: Span; kind: 'flag'; flag: FlagName }

export interface Flags {
  span: Span
  items: FlagItem[]
}

export interface Literal {
  kind: 'literal'
  span: Span
  /** The code point. */
  c: number
  /** Written as `\xNN`: a byte, not a code point, when Unicode mode is off. */
  hexByte: boolean
}

export type AssertionKind =
  | 'start-line'
  | 'end-line'
  | 'start-text'
  | 'end-text'
  | 'word-boundary'
  | 'not-word-boundary'
  | 'word-start'
  | 'word-end'
  | 'word-start-half'
  | 'word-end-half'

export interface Assertion {
  kind: 'assertion'
  span: Span
  assertion: AssertionKind
}

export interface Dot {
  kind: 'dot'
  span: Span
}

export type UnicodeQuery =
  | { type: 'one-letter'; letter: string }
  | { type: 'named'; name: string }
  | { type: 'named-value'; op: 'equal' | 'colon' | 'not-equal'; name: string; value: string }

export interface ClassUnicode {
  kind: 'unicode'
  span: Span
  negated: boolean
  query: UnicodeQuery
}

export type PerlKind = 'digit' | 'space' | 'word'

export interface ClassPerl {
  kind: 'perl'
  span: Span
  perl: PerlKind
  negated: boolean
}

export type AsciiClassName =
  | 'alnum'
  | 'alpha'
  | 'ascii'
  | 'blank'
  | 'cntrl'
  | 'digit'
  | 'graph'
  | 'lower'
  | 'print'
  | 'punct'
  | 'space'
  | 'upper'
  | 'word'
  | 'xdigit'

export interface ClassAscii {
  kind: 'ascii'
  span: Span
  name: AsciiClassName
  negated: boolean
}

export interface ClassRange {
  kind: 'range'
  span: Span
  start: Literal
  end: Literal
}

export interface ClassBracketed {
  kind: 'bracketed'
  span: Span
  negated: boolean
  set: ClassSet
}

export interface ClassUnion {
  kind: 'union'
  span: Span
  items: ClassSetItem[]
}

export type ClassSetItem =
  | { kind: 'empty'; span: Span }
  | Literal
  | ClassRange
  | ClassAscii
  | ClassUnicode
  | ClassPerl
  | ClassBracketed
  | ClassUnion

export type ClassSetOperator = 'intersection' | 'difference' | 'symmetric-difference'

export interface ClassBinaryOp {
  kind: 'binary-op'
  span: Span
  op: ClassSetOperator
  lhs: ClassSet
  rhs: ClassSet
}

export type ClassSet = ClassSetItem | ClassBinaryOp

export type GroupKind = { type: 'capture'; index: number; name?: string } | { type: 'non-capturing'; flags: Flags }

export interface Repetition {
  kind: 'repetition'
  span: Span
  opSpan: Span
  min: number
  /** `null`: unbounded. */
  max: number | null
  greedy: boolean
  ast: Ast
}

export interface Group {
  kind: 'group'
  span: Span
  group: GroupKind
  ast: Ast
}

export type Ast =
  | { kind: 'empty'; span: Span }
  | { kind: 'flags'; span: Span; flags: Flags }
  | Literal
  | Dot
  | Assertion
  | ClassUnicode
  | ClassPerl
  | ClassBracketed
  | Repetition
  | Group
  | { kind: 'alternation'; span: Span; asts: Ast[] }
  | { kind: 'concat'; span: Span; asts: Ast[] }
