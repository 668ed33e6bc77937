/**
 * Unicode simple case folding equivalence classes, as Rust `regex` uses for `(?i)` and JavaScript for `/iu`.
 * Built once, lazily, from the runtime's own case mappings and checked against its `/iu` matching, so the two never disagree.
 */

interface CaseTable {
  /** Code point → its equivalence class (sorted), only for code points that have others. */
  classes: Map<number, readonly number[]>
  /** Every code point in `classes`, ascending. */
  cased: readonly number[]
}

/** Pairs whose simple folding no single-code-point `toLowerCase`/`toUpperCase` reaches. */
const EXTRA_PAIRS: readonly (readonly [number, number])[] = [
  [0x1fd3, 0x390],
  [0x1fe3, 0x3b0],
  [0xfb05, 0xfb06],
]
/** Above this no code point has a case mapping (Unicode 16 ends at Adlam, U+1E943). */
const LAST_CASED = 0x1ffff

let table: CaseTable | undefined

function build(): CaseTable {
  const parent = new Map<number, number>()
  const find = (x: number): number => {
    let root = x
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!
    return root
  }
  const union = (a: number, b: number) => {
    if (!parent.has(a)) parent.set(a, a)
    if (!parent.has(b)) parent.set(b, b)
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent.set(ra, rb)
  }
  const equivalent = (a: number, b: number) => new RegExp(`^\\u{${a.toString(16)}}$`, 'iu').test(String.fromCodePoint(b))
  const consider = (a: number, b: number) => {
    if (a !== b && equivalent(a, b)) union(a, b)
  }
  for (let cp = 0; cp <= LAST_CASED; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue
    const s = String.fromCodePoint(cp)
    for (const mapped of [s.toLowerCase(), s.toUpperCase()]) {
      if (mapped === s) continue
      const other = mapped.codePointAt(0)!
      if (String.fromCodePoint(other) === mapped) consider(cp, other)
    }
  }
  for (const [a, b] of EXTRA_PAIRS) consider(a, b)

  const groups = new Map<number, number[]>()
  for (const cp of parent.keys()) {
    const root = find(cp)
    const group = groups.get(root) ?? []
    group.push(cp)
    groups.set(root, group)
  }
  const classes = new Map<number, readonly number[]>()
  for (const group of groups.values()) {
    if (group.length < 2) continue
    group.sort((a, b) => a - b)
    for (const cp of group) classes.set(cp, group)
  }
  return { classes, cased: [...classes.keys()].sort((a, b) => a - b) }
}

function caseTable(): CaseTable {
  table ??= build()
  return table
}

/** The code points `cp` matches case-insensitively, itself included, ascending. */
export function caseClosure(cp: number): readonly number[] {
  return caseTable().classes.get(cp) ?? [cp]
}

/** Every code point that has a case-insensitive equivalent, ascending. */
export function casedCodePoints(): readonly number[] {
  return caseTable().cased
}

/** `(?i-u)`: ASCII letters only. */
export function asciiCaseClosure(cp: number): readonly number[] {
  if (cp >= 0x41 && cp <= 0x5a) return [cp, cp + 0x20]
  if (cp >= 0x61 && cp <= 0x7a) return [cp - 0x20, cp]
  return [cp]
}
