import { isAbsolute, resolve } from 'node:path'
import type { CommandRule } from '@harness-kernel/kernel'
import { joinShellWords } from './shell-words.js'

/** `host_executable(name, paths)` entries: for a name listed here, only these absolute paths match its rules. */
export type HostExecutables = ReadonlyMap<string, readonly string[]>

interface ExampleMatch {
  rule: CommandRule
  matchedPrefix: string[]
  resolvedProgram?: string
}

/**
 * Codex's check of one `prefix_rule`'s `match` and `not_match` examples, against that rule alone, with
 * `/usr/bin/git …` falling back to a `git` rule as Codex's load-time check does (unless `host_executable` lists
 * other paths for `git`). Returns Codex's error text, or undefined when every example holds.
 */
export function exampleProblem(options: {
  rule: CommandRule
  matches: readonly string[][]
  notMatches: readonly string[][]
  hostExecutables: HostExecutables
}): string | undefined {
  const { rule, hostExecutables } = options
  for (const example of options.notMatches) {
    const found = matchExample(rule, example, hostExecutables)
    if (found) return `expected example to not match rule \`${debugRuleMatch(found)}\`: ${joinShellWords(example)}`
  }
  const unmatched = options.matches.filter((example) => matchExample(rule, example, hostExecutables) === undefined)
  if (unmatched.length === 0) return undefined
  const rules = headsOf(rule).map((head) => debugRule(rule, head))
  return `expected every example to match at least one rule. rules: ${debugList(rules)}; unmatched examples: ${debugList(unmatched.map(joinShellWords))}`
}

function matchExample(rule: CommandRule, argv: readonly string[], hosts: HostExecutables): ExampleMatch | undefined {
  const exact = prefixOf(rule, argv)
  if (exact) return { rule, matchedPrefix: exact }
  const program = argv[0]
  if (program === undefined || !isAbsolute(program)) return undefined
  const normalized = resolve(program)
  const basename = normalized.split('/').at(-1)!
  const allowed = hosts.get(basename)
  if (allowed && !allowed.includes(normalized)) return undefined
  const fallback = prefixOf(rule, [basename, ...argv.slice(1)])
  return fallback ? { rule, matchedPrefix: fallback, resolvedProgram: normalized } : undefined
}

function prefixOf(rule: CommandRule, argv: readonly string[]): string[] | undefined {
  if (argv.length < rule.pattern.length) return undefined
  const matches = rule.pattern.every((token, i) => (typeof token === 'string' ? token === argv[i] : token.includes(argv[i]!)))
  return matches ? argv.slice(0, rule.pattern.length) : undefined
}

const headsOf = (rule: CommandRule) => {
  const first = rule.pattern[0]!
  return typeof first === 'string' ? [first] : first
}

const DECISION_NAMES = { allow: 'Allow', prompt: 'Prompt', forbidden: 'Forbidden' } as const

/** The rule as Codex 0.169.0 prints it (Rust's `Debug` of `PrefixRule`), one per alternative of its first word. */
function debugRule(rule: CommandRule, head: string): string {
  const rest = rule.pattern
    .slice(1)
    .map((token) => (typeof token === 'string' ? `Single(${debugString(token)})` : `Alts(${debugList(token)})`))
  return `PrefixRule { pattern: PrefixPattern { canonical_matching: false, first: ${debugString(head)}, rest: [${rest.join(', ')}] }, decision: ${DECISION_NAMES[rule.decision]}, justification: ${debugOption(rule.justification)} }`
}

function debugRuleMatch(found: ExampleMatch): string {
  const program = found.resolvedProgram === undefined ? 'None' : `Some(AbsolutePathBuf(${debugString(found.resolvedProgram)}))`
  return `PrefixRuleMatch { matched_prefix: ${debugList(found.matchedPrefix)}, decision: ${DECISION_NAMES[found.rule.decision]}, resolved_program: ${program}, justification: ${debugOption(found.rule.justification)} }`
}

const debugOption = (value: string | undefined) => (value === undefined ? 'None' : `Some(${debugString(value)})`)
const debugList = (values: readonly string[]) => `[${values.map(debugString).join(', ')}]`

/** Rust's `{:?}` of a string. */
function debugString(value: string): string {
  let escaped = ''
  for (const ch of value) {
    const code = ch.codePointAt(0)!
    if (ch in RUST_ESCAPES) escaped += RUST_ESCAPES[ch]
    else if (code < 0x20 || code === 0x7f) escaped += `\\u{${code.toString(16)}}`
    else escaped += ch
  }
  return `"${escaped}"`
}

const RUST_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' }
