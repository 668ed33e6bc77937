import { describe, expect, it } from 'vitest'
import { rustDebugString, rustRegexError } from '../src/index.js'

describe('rustRegexError', () => {
  it('underlines the whole pattern without a span', () => {
    expect(rustRegexError('ab(', 'unclosed group')).toBe('regex parse error:\n    ab(\n    ^^^\nerror: unclosed group')
  })

  it('underlines a span, counting columns in code points', () => {
    expect(rustRegexError('😀é(', 'unclosed group', { start: 3, end: 4 })).toBe(
      'regex parse error:\n    😀é(\n      ^\nerror: unclosed group',
    )
  })

  it('underlines several spans (Rust notes the original of a duplicate)', () => {
    expect(
      rustRegexError('(?ii)', 'duplicate flag', [
        { start: 3, end: 4 },
        { start: 2, end: 3 },
      ]),
    ).toBe('regex parse error:\n    (?ii)\n      ^^\nerror: duplicate flag')
  })

  it('numbers the lines of a multi-line pattern', () => {
    expect(rustRegexError('a\nb(', 'unclosed group', { start: 3, end: 4 })).toBe(
      `regex parse error:\n${'~'.repeat(79)}\n1: a\n2: b(\n    ^\n${'~'.repeat(79)}\nerror: unclosed group`,
    )
  })

  it('describes a span across lines in words', () => {
    expect(rustRegexError('a{\n2', 'unclosed counted repetition', { start: 1, end: 4 })).toBe(
      `regex parse error:\n${'~'.repeat(79)}\n1: a{\n2: 2\n${'~'.repeat(79)}\non line 1 (column 2) through line 2 (column 1)\nerror: unclosed counted repetition`,
    )
  })
})

describe('rustDebugString', () => {
  it('quotes and escapes like Rust’s {:?}', () => {
    expect(rustDebugString('(a)\\1')).toBe('"(a)\\\\1"')
    expect(rustDebugString('say "hi"\n\t\r\0')).toBe('"say \\"hi\\"\\n\\t\\r\\0"')
    expect(rustDebugString("it's")).toBe('"it\'s"')
  })

  it('keeps printable non-ASCII and escapes controls, unassigned and grapheme extenders', () => {
    expect(rustDebugString('héllo 日本 😀')).toBe('"héllo 日本 😀"')
    expect(rustDebugString('\x1b[0m\x7f')).toBe('"\\u{1b}[0m\\u{7f}"')
    expect(rustDebugString('\u00a0\u200b\u2028')).toBe('"\\u{a0}\\u{200b}\\u{2028}"')
    expect(rustDebugString('e\u0301')).toBe('"e\\u{301}"')
  })
})
