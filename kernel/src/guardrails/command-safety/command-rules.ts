import type { CommandRule } from '../types.js'
import { executableName } from './executable-name.js'
import { isIgnoredAllowPrefix } from './ignored-allow-prefixes.js'
import { plainCommands } from './parse-command-line.js'

export type CommandRuleDecision = CommandRule['decision']

export interface CommandRuleMatch {
  /** The strictest decision of the matched rules (forbidden > prompt > allow); `undefined` when none matched. */
  decision: CommandRuleDecision | undefined
  /** Every rule that matched, in the order given. */
  matched: CommandRule[]
}

export interface MatchCommandRulesOptions {
  /**
   * When no rule matches a program given by path (`/usr/bin/git`, `./git`), match the rules of its last component
   * (`git`), as Codex's core does (`resolve_host_executables`; `codex execpolicy check --resolve-host-executables`).
   * Default false, as `codex execpolicy check`.
   */
  resolveHostExecutables?: boolean
}

/**
 * Codex's exec-policy prefix rules (`codex-rs/execpolicy`: `PrefixPattern::matches_prefix`, `Policy::check`): a rule
 * matches when its pattern is a prefix of `argv`, token by token (an array element lists the alternatives for its
 * position); every matching rule is reported and the strictest wins.
 */
export function matchCommandRules(
  rules: readonly CommandRule[],
  argv: readonly string[],
  options: MatchCommandRulesOptions = {},
): CommandRuleMatch {
  const matched = matchingRules(rules, argv, options).map(({ rule }) => rule)
  return { decision: strictest(matched), matched }
}

export interface CommandLineEvaluation extends CommandRuleMatch {
  /**
   * `forbidden` or `prompt` when a matched rule says so (strictest wins); `allow` only when a rule allows every
   * evaluated command, which is when Codex runs the line outside the sandbox; `undefined` when some command no rule
   * matched (Codex decides those with its own checks: `unmatched`).
   */
  decision: CommandRuleDecision | undefined
  /** The rule whose decision stands, the most specific (longest pattern) one, as Codex words its reasons. */
  decisive: CommandRule | undefined
  /** What was evaluated: the plain segments, or the whole `[...shell, line]` when the line is not plain. */
  commands: string[][]
  /** The evaluated commands no (honoured) rule matched. */
  unmatched: string[][]
  /** The line was split into plain segments. */
  plain: boolean
}

export interface EvaluateCommandLineOptions {
  /** How Codex would run the line, for a line that is not plain: default `['/bin/bash', '-lc']` (what it runs). */
  shell?: readonly string[]
}

/**
 * The rules over a shell-tool command line, as Codex 0.169.0's core evaluates a `bash -lc` command (observed with the
 * binary, and `commands_for_exec_policy` in `codex-rs/core/src/exec_policy.rs`):
 * - A plain line (`plainCommands`) is evaluated segment by segment; a segment that is itself `bash -lc '…'` is not
 *   split further.
 * - Any other line (redirections, substitutions, heredocs, control flow, …) is evaluated whole, as
 *   `['/bin/bash', '-lc', line]`, so only rules on the shell itself can match it: `echo $(git push)` escapes a rule
 *   on `git push`, while Codex's sandbox and dangerous-command checks still apply.
 * - Programs given by path match the rules of their name (`/usr/bin/git push` matches `git push`).
 * - Allow rules on prefixes that would allow any code (`git`, `bash`, `python3 -c`, …) are disregarded
 *   (`isIgnoredAllowPrefix`).
 */
export function evaluateCommandLine(
  rules: readonly CommandRule[],
  commandLine: string,
  options: EvaluateCommandLineOptions = {},
): CommandLineEvaluation {
  const segments = plainCommands(commandLine)
  const plain = segments !== undefined && segments.length > 0
  const commands = plain ? segments : [[...(options.shell ?? ['/bin/bash', '-lc']), commandLine]]
  const matched: CommandRule[] = []
  const unmatched: string[][] = []
  for (const command of commands) {
    const honoured = matchingRules(rules, command, { resolveHostExecutables: true }).filter(
      ({ rule, prefix }) => rule.decision !== 'allow' || !isIgnoredAllowPrefix(prefix),
    )
    if (honoured.length === 0) unmatched.push(command)
    for (const { rule } of honoured) if (!matched.includes(rule)) matched.push(rule)
  }
  const strict = strictest(matched)
  const decision = strict === 'allow' && unmatched.length > 0 ? undefined : strict
  return { decision, matched, decisive: mostSpecific(matched, decision), commands, unmatched, plain }
}

interface RuleHit {
  rule: CommandRule
  /** The tokens of the command the pattern covered (with the program's name, when matched by name). */
  prefix: string[]
}

function matchingRules(rules: readonly CommandRule[], argv: readonly string[], options: MatchCommandRulesOptions): RuleHit[] {
  const exact = hits(rules, argv)
  if (exact.length > 0 || !options.resolveHostExecutables) return exact
  const program = argv[0]
  const name = program === undefined ? undefined : executableName(program)
  if (program === undefined || !program.includes('/') || name === undefined) return exact
  return hits(rules, [name, ...argv.slice(1)])
}

function hits(rules: readonly CommandRule[], argv: readonly string[]): RuleHit[] {
  return rules.filter((rule) => matchesPrefix(rule.pattern, argv)).map((rule) => ({ rule, prefix: argv.slice(0, rule.pattern.length) }))
}

function matchesPrefix(pattern: CommandRule['pattern'], argv: readonly string[]): boolean {
  if (pattern.length === 0 || argv.length < pattern.length) return false
  return pattern.every((token, index) => {
    const arg = argv[index] as string
    return typeof token === 'string' ? token === arg : token.includes(arg)
  })
}

const STRICTNESS: Record<CommandRuleDecision, number> = { allow: 0, prompt: 1, forbidden: 2 }

function strictest(rules: readonly CommandRule[]): CommandRuleDecision | undefined {
  let decision: CommandRuleDecision | undefined
  for (const rule of rules) if (decision === undefined || STRICTNESS[rule.decision] > STRICTNESS[decision]) decision = rule.decision
  return decision
}

/** The longest-pattern rule with `decision`; the last of equals, as Rust's `max_by_key`. */
function mostSpecific(rules: readonly CommandRule[], decision: CommandRuleDecision | undefined): CommandRule | undefined {
  let best: CommandRule | undefined
  for (const rule of rules)
    if (rule.decision === decision && (best === undefined || rule.pattern.length >= best.pattern.length)) best = rule
  return best
}
