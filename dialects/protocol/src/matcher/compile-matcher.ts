import { rustRegexError } from './rust-regex-error.js'
import { translateRustRegex } from './translate-rust-regex.js'

export type MatcherMode = 'codex' | 'claude-code'

export type CompiledMatcher =
  /** `matchAll`: the matcher was absent, `""` or `"*"`. */
  | { ok: true; matchAll: boolean; test(subject: string): boolean }
  /** Codex: Rust's `regex parse error:…` text. Claude Code: the JavaScript `SyntaxError` message. Either way the group matches nothing. */
  | { ok: false; error: string }

const CODEX_EXACT = /^[A-Za-z0-9_|]+$/
const CLAUDE_EXACT = /^[A-Za-z0-9_\- ,|]+$/

const matchAll: CompiledMatcher = { ok: true, matchAll: true, test: () => true }

/**
 * A hook group's `matcher`, compiled the way the foreign program reads it.
 * - codex: `[A-Za-z0-9_|]+` is a `|` list of exact names; anything else an unanchored Rust `regex` search.
 * - claude-code: letters, digits, `_`, `-`, spaces, `,` and `|` make a list of exact names split on `|` or `,` and trimmed;
 *   anything else an unanchored JavaScript `RegExp` (no flags).
 */
export function compileMatcher(pattern: string | null | undefined, mode: MatcherMode): CompiledMatcher {
  if (pattern === null || pattern === undefined || pattern === '' || pattern === '*') return matchAll
  return mode === 'codex' ? compileCodex(pattern) : compileClaudeCode(pattern)
}

function exact(names: readonly string[]): CompiledMatcher {
  const set = new Set(names)
  return { ok: true, matchAll: false, test: (subject) => set.has(subject) }
}

function compileCodex(pattern: string): CompiledMatcher {
  if (CODEX_EXACT.test(pattern)) return exact(pattern.split('|'))
  const translated = translateRustRegex(pattern)
  if (!translated.ok) return { ok: false, error: rustRegexError(pattern, translated.reason, translated.spans) }
  const { regexp } = translated
  return { ok: true, matchAll: false, test: (subject) => regexp.test(subject) }
}

function compileClaudeCode(pattern: string): CompiledMatcher {
  if (CLAUDE_EXACT.test(pattern)) {
    const names = pattern
      .split(/[|,]/)
      .map((name) => name.trim())
      .filter((name) => name.length > 0)
    return exact(names)
  }
  let regexp: RegExp
  try {
    regexp = new RegExp(pattern)
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  return { ok: true, matchAll: false, test: (subject) => regexp.test(subject) }
}
