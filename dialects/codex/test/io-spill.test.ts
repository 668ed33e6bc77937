import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { approxTokenCount, formattedTruncateText, spillIfLarge } from '../src/io/spill.js'

const root = mkdtempSync(join(tmpdir(), 'codex-io-spill-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const UUID_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.txt$/
const FOOTER_PREFIX = '\n\nFull hook output saved to: '

/** A thread id that makes `<tmp>/hook_outputs/<thread>/<uuid>.txt` exactly `pathLength` bytes long. */
function threadIdFor(tmp: string, pathLength: number): string {
  const fixed = `${tmp}/hook_outputs/`.length + '/'.length + 36 + '.txt'.length
  return 't'.repeat(pathLength - fixed)
}

/** 60,007 bytes of ASCII text in newline-terminated lines, like a long hook context. */
function observedSizedText(): string {
  const line = `${'x'.repeat(99)}\n`
  const text = line.repeat(600) + 'y'.repeat(7)
  expect(Buffer.byteLength(text)).toBe(60_007)
  return text
}

describe('spillIfLarge (checklist 87, 88)', () => {
  it('reproduces the observed spill: 60,007 bytes → 4,914 + 4,914, 15002, 12545', () => {
    const tmp = mkdtempSync(join(root, 'obs-'))
    // Codex's observed run: head and tail of 4,914 bytes imply a 43-token footer, i.e. a 140–143-byte path.
    for (const pathLength of [140, 141, 143]) {
      const threadId = threadIdFor(tmp, pathLength)
      const text = observedSizedText()
      const result = spillIfLarge(text, { threadId, tmpDir: tmp })
      const path = result.spilledTo!
      expect(path.length).toBe(pathLength)
      expect(path.startsWith(`${tmp}/hook_outputs/${threadId}/`)).toBe(true)
      expect(path.split('/').at(-1)).toMatch(UUID_FILE)
      expect(readFileSync(path, 'utf8')).toBe(text)
      const head = text.slice(0, 4914)
      const tail = text.slice(text.length - 4914)
      expect(result.text).toBe(
        `Warning: truncated output (original token count: 15002)\nTotal output lines: 601\n\n${head}…12545 tokens truncated…${tail}${FOOTER_PREFIX}${path}`,
      )
    }
  })

  it('derives the budget from the footer length: a 144-byte path leaves 4,912 + 4,912', () => {
    const tmp = mkdtempSync(join(root, 'len-'))
    const text = observedSizedText()
    const result = spillIfLarge(text, { threadId: threadIdFor(tmp, 144), tmpDir: tmp })
    const footerTokens = Math.ceil(Buffer.byteLength(FOOTER_PREFIX + result.spilledTo!) / 4)
    expect(footerTokens).toBe(44)
    const budget = 4 * (2500 - footerTokens)
    expect(budget / 2).toBe(4912)
    expect(result.text).toContain(
      `\n\n${text.slice(0, 4912)}…${Math.ceil((60_007 - budget) / 4)} tokens truncated…${text.slice(-4912)}${FOOTER_PREFIX}`,
    )
  })

  it('leaves text at or under the limit alone', () => {
    const tmp = mkdtempSync(join(root, 'under-'))
    expect(spillIfLarge('a'.repeat(10_000), { threadId: 'T', tmpDir: tmp })).toEqual({ text: 'a'.repeat(10_000) })
    expect(readdirSync(tmp)).toEqual([])
    expect(spillIfLarge('a'.repeat(10_001), { threadId: 'T', tmpDir: tmp }).spilledTo).toBeDefined()
  })

  it('limit 0 never spills; 100 spills early', () => {
    const tmp = mkdtempSync(join(root, 'limits-'))
    const text = 'z'.repeat(100_000)
    expect(spillIfLarge(text, { threadId: 'T', tmpDir: tmp, limit: 0 })).toEqual({ text })
    const small = 'w'.repeat(500)
    const result = spillIfLarge(small, { threadId: 'T', tmpDir: tmp, limit: 100 })
    const path = result.spilledTo!
    const budget = 4 * (100 - Math.ceil(Buffer.byteLength(FOOTER_PREFIX + path) / 4))
    expect(result.text).toBe(
      `Warning: truncated output (original token count: 125)\nTotal output lines: 1\n\n${'w'.repeat(budget / 2)}…${Math.ceil((500 - budget) / 4)} tokens truncated…${'w'.repeat(budget / 2)}${FOOTER_PREFIX}${path}`,
    )
    expect(readFileSync(path, 'utf8')).toBe(small)
  })

  it('a footer larger than the limit leaves only the marker', () => {
    const tmp = mkdtempSync(join(root, 'tiny-'))
    const result = spillIfLarge('q'.repeat(81), { threadId: 'T', tmpDir: tmp, limit: 20 })
    expect(result.text).toBe(
      `Warning: truncated output (original token count: 21)\nTotal output lines: 1\n\n…21 tokens truncated…${FOOTER_PREFIX}${result.spilledTo}`,
    )
  })

  it('cuts head and tail back to whole UTF-8 characters and writes the bytes as they are', () => {
    const tmp = mkdtempSync(join(root, 'utf8-'))
    const text = 'é'.repeat(3000) // 6,000 bytes, 1,500 tokens
    const result = spillIfLarge(text, { threadId: 'T', tmpDir: tmp, limit: 1000 })
    const path = result.spilledTo!
    expect(readFileSync(path)).toEqual(Buffer.from(text, 'utf8'))
    const budget = 4 * (1000 - Math.ceil(Buffer.byteLength(FOOTER_PREFIX + path) / 4))
    const half = budget / 2
    const chars = Math.floor(half / 2)
    const body = result.text.split('\n\n')[1]!
    expect(body).toBe(`${'é'.repeat(chars)}…${Math.ceil((6000 - budget) / 4)} tokens truncated…${'é'.repeat(chars)}`)
  })

  it('keeps odd budgets on character boundaries', () => {
    // 8-byte budget: head ≤ 4 bytes ends before the first 日 (bytes 2–4); tail starts at the first character at or after byte 10.
    expect(formattedTruncateText('ab日日日日', 2)).toBe(
      'Warning: truncated output (original token count: 4)\nTotal output lines: 1\n\nab…2 tokens truncated…日',
    )
    expect(formattedTruncateText('ab日cd', 1)).toBe(
      'Warning: truncated output (original token count: 2)\nTotal output lines: 1\n\nab…1 tokens truncated…cd',
    )
  })

  it('counts lines like Rust: a final newline adds none', () => {
    expect(formattedTruncateText('a\nb\nc\n', 1)).toMatch(
      /^Warning: truncated output \(original token count: 2\)\nTotal output lines: 3\n\n/,
    )
    expect(formattedTruncateText('a\nb\nc', 1)).toMatch(/Total output lines: 3\n/)
    expect(formattedTruncateText('a\n\nb\n\n', 1)).toMatch(/Total output lines: 4\n/)
  })

  it('without a writable spill directory, truncates to the full limit with no footer', () => {
    const file = join(root, 'not-a-dir')
    writeFileSync(file, '')
    const text = 'k'.repeat(12_000)
    const result = spillIfLarge(text, { threadId: 'T', tmpDir: file })
    expect(result.spilledTo).toBeUndefined()
    expect(result.text).toBe(
      `Warning: truncated output (original token count: 3000)\nTotal output lines: 1\n\n${'k'.repeat(5000)}…500 tokens truncated…${'k'.repeat(5000)}`,
    )
  })

  it('defaults to $TMPDIR', () => {
    const tmp = mkdtempSync(join(root, 'env-'))
    const saved = process.env.TMPDIR
    process.env.TMPDIR = tmp
    try {
      expect(spillIfLarge('m'.repeat(10_004), { threadId: 'thr' }).spilledTo!.startsWith(`${tmp}/hook_outputs/thr/`)).toBe(true)
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
  })

  it('approxTokenCount is ceil(utf8 bytes / 4)', () => {
    expect(approxTokenCount('')).toBe(0)
    expect(approxTokenCount('abcde')).toBe(2)
    expect(approxTokenCount('éé')).toBe(1)
  })
})
