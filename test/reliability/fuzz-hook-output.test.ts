/**
 * Random hook outputs never make a dialect throw: random bytes, truncated and mutated JSON, wrong types for every known
 * field, huge numbers, deep nesting, invalid UTF-8, exit codes 0, 1, 2 and others, signals and timeouts, through both
 * dialects' output parsing and merging. The seed is printed with any failure; `RELIABILITY_SEED=<n>` replays it.
 */
import { describe, expect, it } from 'vitest'
import { fuzzParsers } from '../../bench/src/reliability/fuzz-parsers.js'
import { runFuzzedSubprocessSessions } from '../../bench/src/reliability/fuzz-subprocess.js'
import { seedFromEnv } from '../../bench/src/reliability/prng.js'

describe('fuzzed hook outputs, in process', () => {
  it('3,000 random groups of 1–4 replies through Codex and Claude Code parsing and merging: nothing throws', () => {
    const seed = seedFromEnv()
    const result = fuzzParsers({ seed, iterations: 3000 })
    expect(result.failures.slice(0, 5), `seed ${seed} (RELIABILITY_SEED=${seed} replays it)`).toEqual([])
    expect(result.merges).toBe(3000)
    // Every kind of broken output was tried.
    expect(Object.keys(result.kinds).sort()).toEqual(
      [
        'byteOrderMark',
        'deepNesting',
        'empty',
        'hugeNumbers',
        'invalidUtf8',
        'json',
        'mutatedJson',
        'notAnObject',
        'plainText',
        'randomBytes',
        'surrounded',
        'truncatedJson',
        'whitespace',
      ].sort(),
    )
  })
})

describe('fuzzed hook outputs, through real hook processes', () => {
  it('4 sessions, each with a random reply from 5 events × 2 dialects: every turn ends with a status, every neighbouring hook’s run arrives', async () => {
    const seed = seedFromEnv()
    const sessions = await runFuzzedSubprocessSessions({ seed, sessions: 4 })
    const context = `seed ${seed} (RELIABILITY_SEED=${seed} replays it)`
    for (const session of sessions) {
      expect(['completed', 'blocked', 'halted'], `${context}: ${JSON.stringify(session.kinds)}`).toContain(session.outcome)
      for (const [handler, runs] of Object.entries(session.runs)) {
        expect(runs.witness, `${context}: the witness beside ${handler} (${session.kinds[handler]})`).toEqual(
          Array.from({ length: runs.fuzzed }, () => 'completed'),
        )
      }
    }
    // Both dialects' SessionStart hooks ran, and Codex's UserPromptSubmit (its tap comes first; a block there is a veto,
    // so Claude Code's tap after it may not run).
    for (const session of sessions) {
      expect(Object.keys(session.runs), context).toEqual(
        expect.arrayContaining(['codex/SessionStart', 'claude-code/SessionStart', 'codex/UserPromptSubmit']),
      )
    }
  })
})
