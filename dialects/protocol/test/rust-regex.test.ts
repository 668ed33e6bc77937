import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { rustRegexError, translateRustRegex } from '../src/index.js'

interface GoldenCase {
  pattern: string
  matches?: string
  error?: string
}

const golden = JSON.parse(readFileSync(new URL('./fixtures/rust-regex-golden.json', import.meta.url), 'utf8')) as {
  subjects: string[]
  cases: GoldenCase[]
}

function translate(pattern: string): RegExp {
  const result = translateRustRegex(pattern)
  if (!result.ok) throw new Error(`${pattern}: ${result.reason}`)
  return result.regexp
}

function rejection(pattern: string): string {
  const result = translateRustRegex(pattern)
  if (result.ok) throw new Error(`${pattern} was accepted as /${result.regexp.source}/${result.regexp.flags}`)
  return rustRegexError(pattern, result.reason, result.spans)
}

describe('translateRustRegex against the Rust regex crate', () => {
  it.each(golden.cases.map((c) => [c.pattern, c] as const))('%j', (pattern, expected) => {
    const result = translateRustRegex(pattern)
    if (expected.error !== undefined) {
      expect(result.ok).toBe(false)
      if (!result.ok) expect(rustRegexError(pattern, result.reason, result.spans)).toBe(expected.error)
      return
    }
    if (!result.ok) throw new Error(`rejected: ${result.reason}`)
    const matches = golden.subjects.map((subject) => (result.regexp.test(subject) ? '1' : '0')).join('')
    expect(matches).toBe(expected.matches)
  })
})

describe('translateRustRegex', () => {
  it('rejects look-around, backreferences and unclosed constructs with Rust reasons', () => {
    expect(rejection('(?=Bash)')).toBe(
      'regex parse error:\n    (?=Bash)\n    ^^^\nerror: look-around, including look-ahead and look-behind, is not supported',
    )
    for (const p of ['(?!a)', '(?<=a)', '(?<!a)']) expect(rejection(p)).toMatch(/error: look-around, including/)
    expect(rejection('(a)\\1')).toBe('regex parse error:\n    (a)\\1\n       ^^\nerror: backreferences are not supported')
    expect(rejection('\\9')).toMatch(/error: backreferences are not supported$/)
    expect(rejection('[')).toBe('regex parse error:\n    [\n    ^\nerror: unclosed character class')
    expect(rejection('(a')).toMatch(/error: unclosed group$/)
    expect(rejection('a)')).toBe('regex parse error:\n    a)\n     ^\nerror: unopened group')
  })

  it('rejects atomic groups (an unrecognized flag in Rust) and JavaScript-only escapes', () => {
    expect(rejection('(?>a)')).toBe('regex parse error:\n    (?>a)\n      ^\nerror: unrecognized flag')
    // Rust has no \k<name>: it is an unknown escape, not a backreference.
    expect(rejection('(?<n>a)\\k<n>')).toMatch(/error: unrecognized escape sequence$/)
  })

  it('reads a doubled quantifier as Rust does: a repetition of a repetition, not a possessive one', () => {
    expect(translate('a*+').test('aa')).toBe(true)
    expect(translate('^(?:ab){2}{2}$').test('abababab')).toBe(true)
    expect(translate('^(?:ab){2}{2}$').test('ababab')).toBe(false)
  })

  it('accepts Rust-only syntax', () => {
    expect(translate('(?P<n>Bash)').exec('Bash')?.groups?.n).toBe('Bash')
    expect(translate('(?<n>Bash)').exec('Bash')?.groups?.n).toBe('Bash')
    // Rust allows group names JavaScript does not; they become plain groups.
    expect(translate('(?P<a.b>x)').exec('x')?.[1]).toBe('x')
    expect(translate('\\ABash\\z').test('Bash')).toBe(true)
    expect(translate('\\ABash\\z').test('Bash\n')).toBe(false)
    expect(translate('Bash$').test('Bash\n')).toBe(false)
    expect(translate('(?m)Bash$').test('Bash\nx')).toBe(true)
    expect(translate('(?s)a.b').test('a\nb')).toBe(true)
    expect(translate('a.b').test('a\nb')).toBe(false)
    expect(translate('a.b').test('a\rb')).toBe(true)
    expect(translate('(?x) B a s h  # the shell\n').test('Bash')).toBe(true)
    expect(translate('(?U)a+').exec('aaa')?.[0]).toBe('a')
  })

  it('uses the i flag when case insensitivity covers the whole pattern', () => {
    const regexp = translate('(?i)bash')
    expect(regexp.flags).toBe('iv')
    expect(regexp.test('BASH')).toBe(true)
  })

  it('emulates scoped case insensitivity by expanding letters, since Node 20 has no (?i:…) modifiers', () => {
    const regexp = translate('(?i:ba)sh')
    expect(regexp.flags).toBe('v')
    expect(regexp.test('BAsh')).toBe(true)
    expect(regexp.test('BASH')).toBe(false)
    expect(translate('a(?i)b').test('aB')).toBe(true)
    expect(translate('a(?i)b').test('AB')).toBe(false)
    // Simple case folding, as in Rust: K matches the Kelvin sign, ß matches ẞ.
    expect(translate('x(?i:k)').test('x\u212a')).toBe(true)
    expect(translate('x(?i:ß)').test('xẞ')).toBe(true)
    expect(translate('x(?i:\\p{Lu})').test('xa')).toBe(true)
    expect(translate('x(?i:[^k])').test('xK')).toBe(false)
  })

  it('translates class set operations onto the v flag', () => {
    expect(translate('^[\\w--\\d]+$').test('abc')).toBe(true)
    expect(translate('^[\\w--\\d]+$').test('a1')).toBe(false)
    expect(translate('^[a-z&&[^aeiou]]$').test('b')).toBe(true)
    expect(translate('^[a-z&&[^aeiou]]$').test('a')).toBe(false)
    expect(translate('^[a-c~~b-d]$').test('a')).toBe(true)
    expect(translate('^[a-c~~b-d]$').test('b')).toBe(false)
  })

  it('makes \\d, \\w, \\s and \\b Unicode-aware', () => {
    expect(translate('^\\d$').test('٣')).toBe(true)
    expect(translate('^\\w+$').test('héllo_wörld')).toBe(true)
    expect(translate('^\\s$').test('\u2003')).toBe(true)
    expect(translate('\\bé').test('é')).toBe(true)
    expect(translate('a\\b').test('aé')).toBe(false)
    expect(translate('^[\\d]$').test('٣')).toBe(true)
  })

  it('keeps the (?-u) ASCII forms and rejects what could match invalid UTF-8', () => {
    expect(translate('(?-u)^\\d$').test('٣')).toBe(false)
    expect(rejection('(?-u).')).toBe('regex parse error:\n    (?-u).\n         ^\nerror: pattern can match invalid UTF-8')
    expect(rejection('(?-u)\\p{L}')).toMatch(/error: Unicode not allowed here$/)
  })

  it('names Unicode properties JavaScript cannot express instead of guessing', () => {
    const result = translateRustRegex('\\p{Age=6.0}')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.reason).toBe('Unicode property not supported by the JavaScript translation: Age')
    expect(rejection('\\p{NoSuchThing}')).toMatch(/error: Unicode property not found$/)
  })

  it('enforces the nest limit of 250', () => {
    expect(translateRustRegex(`${'('.repeat(200)}a${')'.repeat(200)}`).ok).toBe(true)
    expect(rejection(`${'('.repeat(300)}a${')'.repeat(300)}`)).toMatch(
      /error: exceed the maximum number of nested parentheses\/brackets \(250\)$/,
    )
  })
})
