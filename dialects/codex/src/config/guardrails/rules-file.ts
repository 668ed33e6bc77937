import { readFileSync } from 'node:fs'
import type { CommandRule } from '@harness-kernel/kernel'
import { evaluateRules, RulesEvalError } from './evaluate-rules.js'
import { parseRulesSource, RulesParseError } from './parse-rules.js'
import { exampleProblem, type HostExecutables } from './rule-examples.js'
import type { RulesBuilder } from './rules-builtins.js'
import { CodexRulesError } from './rules-syntax-error.js'

export interface ParsedRules {
  /** The `prefix_rule`s in file order, `source` set to the file. */
  rules: CommandRule[]
  /** Every `host_executable` seen so far (the ones passed in, then this file's), name → absolute paths. */
  hostExecutables: Map<string, string[]>
}

/**
 * Reads one Codex exec-policy file as Codex 0.169.0 loads it: runs its `prefix_rule`, `host_executable` and
 * `network_rule` calls, then checks every rule's `match` / `not_match` examples (a failing one refuses the file with
 * Codex's text). `hostExecutables` carries the ones of files read before, as Codex's one parser does across files.
 * Throws a `CodexRulesError` naming the file, line and column.
 */
export function parseRules(options: { text: string; file: string; hostExecutables?: HostExecutables }): ParsedRules {
  const { text, file } = options
  const builder: RulesBuilder = {
    rules: [],
    hostExecutables: new Map([...(options.hostExecutables ?? [])].map(([name, paths]) => [name, [...paths]])),
  }
  try {
    evaluateRules(parseRulesSource(text), builder)
  } catch (err) {
    if (err instanceof RulesParseError || err instanceof RulesEvalError)
      throw new CodexRulesError({ file, at: err.at, message: err.message })
    throw err
  }
  for (const pending of builder.rules) {
    const problem = exampleProblem({ ...pending, hostExecutables: builder.hostExecutables })
    if (problem !== undefined) throw new CodexRulesError({ file, at: pending, message: problem })
  }
  return { rules: builder.rules.map(({ rule }) => ({ ...rule, source: file })), hostExecutables: builder.hostExecutables }
}

/** `parseRules` on a file; an unreadable file is an error naming it. */
export function readRulesFile(options: { path: string; hostExecutables?: HostExecutables }): ParsedRules {
  let text: string
  try {
    text = readFileSync(options.path, 'utf8')
  } catch (err) {
    throw new CodexRulesError({
      file: options.path,
      at: { line: 1, column: 1 },
      message: `failed to read rules file: ${(err as Error).message}`,
    })
  }
  return parseRules({ text, file: options.path, hostExecutables: options.hostExecutables })
}
