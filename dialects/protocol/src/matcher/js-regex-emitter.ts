import { asciiCaseClosure, caseClosure, casedCodePoints } from './case-folding.js'
import type { CaseFold, JsClass, JsNode } from './js-regex-ir.js'

export interface EmittedRegex {
  source: string
  /** Always `v` (Unicode sets); `vi` when every case-insensitive leaf can use JavaScript's own folding. */
  flags: string
}

/**
 * Emits the IR as JavaScript source for the `v` flag. When case insensitivity covers the whole pattern it becomes the `i` flag;
 * when it is scoped (`a(?i)b`, `(?i:…)`), each folded leaf is expanded to its case-equivalents instead, since Node 20 has no
 * scoped modifiers.
 */
export function emitJsRegex(node: JsNode): EmittedRegex {
  // Only a pattern with some `(?i)` needs the case tables, to tell whether the `i` flag would fold anything it must not.
  const globalFold =
    some(node, (fold) => fold === 'unicode') && !some(node, (fold, cased) => fold === 'ascii' || (fold === 'none' && cased()))
  const emitter = new Emitter(globalFold)
  return { source: emitter.node(node).source, flags: globalFold ? 'vi' : 'v' }
}

/** Whether some case-relevant leaf satisfies `test`; `cased()` says whether the leaf holds a character with case-equivalents. */
type LeafTest = (fold: CaseFold, cased: () => boolean) => boolean

function some(node: JsNode, test: LeafTest): boolean {
  switch (node.type) {
    case 'literal':
      return test(node.fold, () => isCased(node.cp))
    case 'class':
      return someInClass(node.cls, test)
    case 'raw':
      return node.caseSensitive && test('none', () => true)
    case 'sequence':
    case 'alternation':
      return node.items.some((item) => some(item, test))
    case 'group':
    case 'repeat':
      return some(node.body, test)
  }
}

function someInClass(cls: JsClass, test: LeafTest): boolean {
  switch (cls.type) {
    case 'ranges':
      return test(cls.fold, () => rangesHaveCased(cls.ranges))
    case 'property':
      return !cls.closed && test(cls.fold, () => true)
    case 'union':
      return cls.items.some((item) => someInClass(item, test))
    case 'op':
      return someInClass(cls.lhs, test) || someInClass(cls.rhs, test)
    case 'negate':
      return someInClass(cls.inner, test)
  }
}

function isCased(cp: number): boolean {
  // Most literals are ASCII, where only letters have case-equivalents; no need to build the tables for them.
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)
  return caseClosure(cp).length > 1
}

function rangesHaveCased(ranges: ReadonlyArray<readonly [number, number]>): boolean {
  return ranges.some(([lo, hi]) => casedIn(lo, hi).length > 0)
}

/** The cased code points in `[lo, hi]`. */
function casedIn(lo: number, hi: number): number[] {
  const cased = casedCodePoints()
  let low = 0
  let high = cased.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (cased[mid]! < lo) low = mid + 1
    else high = mid
  }
  const out: number[] = []
  for (let i = low; i < cased.length && cased[i]! <= hi; i++) out.push(cased[i]!)
  return out
}

const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/')

function hex(cp: number): string {
  return `\\u{${cp.toString(16)}}`
}

/** A literal outside a class. */
function literalSource(cp: number): string {
  if (cp > 0x20 && cp < 0x7f) {
    const c = String.fromCharCode(cp)
    return SYNTAX_CHARACTERS.has(c) ? `\\${c}` : c
  }
  return cp === 0x20 ? ' ' : hex(cp)
}

/** A character inside a `v`-mode class, where most ASCII punctuation is reserved. */
function classCharSource(cp: number): string {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? String.fromCharCode(cp) : hex(cp)
}

function rangesSource(ranges: Iterable<readonly [number, number]>): string {
  let out = ''
  for (const [lo, hi] of ranges) out += lo === hi ? classCharSource(lo) : `${classCharSource(lo)}-${classCharSource(hi)}`
  return out
}

/** Sorted, merged ranges of a set of code points. */
function compress(cps: Iterable<number>): Array<readonly [number, number]> {
  const sorted = [...new Set(cps)].sort((a, b) => a - b)
  const ranges: Array<[number, number]> = []
  for (const cp of sorted) {
    const last = ranges.at(-1)
    if (last !== undefined && last[1] + 1 === cp) last[1] = cp
    else ranges.push([cp, cp])
  }
  return ranges
}

class Emitter {
  readonly #globalFold: boolean

  constructor(globalFold: boolean) {
    this.#globalFold = globalFold
  }

  node(node: JsNode): { source: string; atom: boolean } {
    switch (node.type) {
      case 'literal': {
        const closure = this.literalClosure(node.cp, node.fold)
        if (closure.length === 1) return { source: literalSource(node.cp), atom: true }
        return { source: `[${rangesSource(compress(closure))}]`, atom: true }
      }
      case 'class':
        return { source: this.bracket(node.cls), atom: true }
      case 'raw':
        return { source: node.source, atom: node.atom }
      case 'sequence': {
        const parts = node.items.map((item) => this.node(item))
        if (parts.length === 1) return parts[0]!
        return { source: parts.map((part) => part.source).join(''), atom: false }
      }
      case 'alternation':
        return { source: node.items.map((item) => this.node(item).source).join('|'), atom: false }
      case 'group': {
        const body = this.node(node.body).source
        if (!node.capture) return { source: `(?:${body})`, atom: true }
        return { source: node.name === undefined ? `(${body})` : `(?<${node.name}>${body})`, atom: true }
      }
      case 'repeat': {
        const body = this.node(node.body)
        const operand = body.atom ? body.source : `(?:${body.source})`
        return { source: operand + quantifier(node.min, node.max) + (node.greedy ? '' : '?'), atom: false }
      }
    }
  }

  private literalClosure(cp: number, fold: CaseFold): readonly number[] {
    if (fold === 'ascii') return asciiCaseClosure(cp)
    if (fold === 'unicode' && !this.#globalFold) return caseClosure(cp)
    return [cp]
  }

  /** A complete class, `[…]`. */
  private bracket(cls: JsClass): string {
    switch (cls.type) {
      case 'op': {
        const lhs = this.bracket(cls.lhs)
        const rhs = this.bracket(cls.rhs)
        if (cls.op === 'intersection') return `[${lhs}&&${rhs}]`
        if (cls.op === 'difference') return `[${lhs}--${rhs}]`
        return `[[${lhs}--${rhs}][${rhs}--${lhs}]]`
      }
      case 'negate':
        return `[^${this.bracket(cls.inner)}]`
      default:
        return `[${this.contents(cls)}]`
    }
  }

  /** What a class contributes inside an enclosing `[…]` union. */
  private contents(cls: JsClass): string {
    switch (cls.type) {
      case 'ranges':
        return rangesSource(cls.ranges) + rangesSource(this.rangeExtras(cls.ranges, cls.fold))
      case 'property':
        return cls.source + (cls.closed ? '' : rangesSource(this.propertyExtras(cls.source, cls.fold)))
      case 'union':
        return cls.items.map((item) => (item.type === 'op' || item.type === 'negate' ? this.bracket(item) : this.contents(item))).join('')
      default:
        return this.bracket(cls)
    }
  }

  /** Case-equivalents of a folded range that fall outside it. */
  private rangeExtras(ranges: ReadonlyArray<readonly [number, number]>, fold: CaseFold): Array<readonly [number, number]> {
    if (fold === 'none' || (fold === 'unicode' && this.#globalFold)) return []
    const inside = (cp: number) => ranges.some(([lo, hi]) => cp >= lo && cp <= hi)
    const extras: number[] = []
    for (const [lo, hi] of ranges) {
      const members = fold === 'ascii' ? asciiLettersIn(lo, hi) : casedIn(lo, hi)
      for (const cp of members) {
        for (const other of fold === 'ascii' ? asciiCaseClosure(cp) : caseClosure(cp)) if (!inside(other)) extras.push(other)
      }
    }
    return compress(extras)
  }

  private propertyExtras(source: string, fold: CaseFold): Array<readonly [number, number]> {
    if (fold !== 'unicode' || this.#globalFold) return []
    const member = new RegExp(`^[${source}]$`, 'v')
    const extras: number[] = []
    for (const cp of casedCodePoints()) {
      if (!member.test(String.fromCodePoint(cp))) continue
      for (const other of caseClosure(cp)) if (!member.test(String.fromCodePoint(other))) extras.push(other)
    }
    return compress(extras)
  }
}

function asciiLettersIn(lo: number, hi: number): number[] {
  const out: number[] = []
  for (let cp = Math.max(lo, 0x41); cp <= Math.min(hi, 0x7a); cp++) if (asciiCaseClosure(cp).length > 1) out.push(cp)
  return out
}

function quantifier(min: number, max: number | null): string {
  if (max === null) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`
  if (min === 0 && max === 1) return '?'
  return min === max ? `{${min}}` : `{${min},${max}}`
}
