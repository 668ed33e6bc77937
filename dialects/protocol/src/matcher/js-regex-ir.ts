import type { ClassSetOperator } from './rust-regex-ast.js'

/** How a leaf folds case: not at all, Unicode simple folding (`(?i)`), or ASCII letters only (`(?i-u)`). */
export type CaseFold = 'none' | 'unicode' | 'ascii'

/** A character set, kept as a tree so case folding can be applied leaf by leaf (as Rust does) before set operations. */
export type JsClass =
  | { type: 'ranges'; ranges: Array<readonly [number, number]>; fold: CaseFold }
  /** `source` is one or more `\p{…}` escapes; `closed` when already closed under case folding (Perl classes). */
  | { type: 'property'; source: string; fold: CaseFold; closed: boolean }
  | { type: 'union'; items: JsClass[] }
  | { type: 'op'; op: ClassSetOperator; lhs: JsClass; rhs: JsClass }
  | { type: 'negate'; inner: JsClass }

/** The translated pattern, before deciding between JavaScript's `i` flag and per-leaf case folding. */
export type JsNode =
  | { type: 'literal'; cp: number; fold: CaseFold }
  | { type: 'class'; cls: JsClass }
  /** Generated JavaScript; `caseSensitive` when the `i` flag would change what it matches. */
  | { type: 'raw'; source: string; atom: boolean; caseSensitive: boolean }
  | { type: 'sequence'; items: JsNode[] }
  | { type: 'alternation'; items: JsNode[] }
  | { type: 'group'; capture: boolean; name: string | undefined; body: JsNode }
  | { type: 'repeat'; min: number; max: number | null; greedy: boolean; body: JsNode }
