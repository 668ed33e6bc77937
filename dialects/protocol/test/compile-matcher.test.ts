import { describe, expect, it } from 'vitest'
import { type CompiledMatcher, compileMatcher } from '../src/index.js'

function matcher(pattern: string | null | undefined, mode: 'codex' | 'claude-code'): Extract<CompiledMatcher, { ok: true }> {
  const compiled = compileMatcher(pattern, mode)
  if (!compiled.ok) throw new Error(compiled.error)
  return compiled
}

function error(pattern: string, mode: 'codex' | 'claude-code'): string {
  const compiled = compileMatcher(pattern, mode)
  if (compiled.ok) throw new Error(`${pattern} compiled`)
  return compiled.error
}

describe('compileMatcher codex (codex-hooks.md §3, checklist 23–28)', () => {
  it('23: absent, "" and "*" match all', () => {
    for (const pattern of [undefined, null, '', '*']) {
      const m = matcher(pattern, 'codex')
      expect(m.matchAll).toBe(true)
      expect(m.test('Bash')).toBe(true)
      expect(m.test('')).toBe(true)
    }
  })

  it('24: a word-and-pipe matcher is a list of exact, case-sensitive names', () => {
    for (const pattern of ['Bash', 'Edit|Bash', 'Bash|Ba']) expect(matcher(pattern, 'codex').test('Bash')).toBe(true)
    for (const pattern of ['Ba', 'bash', 'exec_command']) expect(matcher(pattern, 'codex').test('Bash')).toBe(false)
    expect(matcher('Bash', 'codex').test('BashOutput')).toBe(false)
    expect(matcher('Bash', 'codex').matchAll).toBe(false)
  })

  it('25: anything else is an unanchored Rust regex search', () => {
    for (const pattern of ['^Bash$', '^Ba', 'B.*', '.*sh', 'Bas?h', 'a.h', 'B.s', 'Bash$', '(Bash)']) {
      expect(matcher(pattern, 'codex').test('Bash'), pattern).toBe(true)
    }
    for (const pattern of ['Bash ', 'Edit,Bash']) expect(matcher(pattern, 'codex').test('Bash'), pattern).toBe(false)
    expect(matcher('mcp__memory__.*', 'codex').test('mcp__memory__create_entities')).toBe(true)
    expect(matcher('^Bash', 'codex').test('BashOutput')).toBe(true)
  })

  it('26: an invalid pattern gives Rust’s exact error', () => {
    expect(error('[', 'codex')).toBe('regex parse error:\n    [\n    ^\nerror: unclosed character class')
  })

  it('27: look-around and backreferences are rejected with their reasons', () => {
    expect(error('(?=Bash)', 'codex')).toBe(
      'regex parse error:\n    (?=Bash)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported',
    )
    expect(error('(a)\\1', 'codex')).toBe('regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported')
  })

  it('28: (?i), (?P<n>…) and \\A…\\z behave as in Rust', () => {
    expect(matcher('(?i)bash', 'codex').test('Bash')).toBe(true)
    expect(matcher('(?P<n>Bash)', 'codex').test('Bash')).toBe(true)
    expect(matcher('\\ABash\\z', 'codex').test('Bash')).toBe(true)
    expect(matcher('\\ABash\\z', 'codex').test('xBash')).toBe(false)
  })

  it('a test is stateless (no lastIndex carried between subjects)', () => {
    const m = matcher('B.*', 'codex')
    expect([m.test('Bash'), m.test('Bash'), m.test('Bash')]).toEqual([true, true, true])
  })
})

describe('compileMatcher claude-code (claude-code-hooks.md §3)', () => {
  it('"*", "" and absent match all', () => {
    for (const pattern of [undefined, null, '', '*']) expect(matcher(pattern, 'claude-code').matchAll).toBe(true)
  })

  it('letters, digits, _, -, spaces, commas and pipes make a trimmed list of exact names', () => {
    const m = matcher('Edit, Write | mcp__my-server__tool', 'claude-code')
    expect(m.test('Edit')).toBe(true)
    expect(m.test('Write')).toBe(true)
    expect(m.test('mcp__my-server__tool')).toBe(true)
    expect(m.test('NotebookEdit')).toBe(false)
    expect(matcher('mcp__memory', 'claude-code').test('mcp__memory__create_entities')).toBe(false)
    expect(matcher('Bash', 'claude-code').test('bash')).toBe(false)
  })

  it('anything else is an unanchored, case-sensitive JavaScript RegExp', () => {
    expect(matcher('Edit.*', 'claude-code').test('NotebookEdit')).toBe(true)
    expect(matcher('mcp__memory__.*', 'claude-code').test('mcp__memory__create_entities')).toBe(true)
    expect(matcher('^Bash$', 'claude-code').test('bash')).toBe(false)
    // JavaScript syntax, not Rust's: look-ahead is fine here.
    expect(matcher('(?=B)Bash', 'claude-code').test('Bash')).toBe(true)
  })

  it('an invalid regex reports the JavaScript error', () => {
    expect(error('(', 'claude-code')).toBe('Invalid regular expression: /(/: Unterminated group')
  })
})
