import {
  CLAUDE_EVENTS,
  type MergeRun as ClaudeMergeRun,
  type HookOutput,
  mergeGate,
  mergePermissionRequest,
  mergePostToolUse,
  mergePreToolUse,
  readHookOutput,
} from '@harness-kernel/claude-code'
import { CODEX_EVENTS, type HandlerOutcome, mergeOutcomes, parseHandlerOutput } from '@harness-kernel/codex'
import { type Prng, prng } from './prng.js'
import { decoded, type RandomHookReply, randomHookReply } from './random-hook-reply.js'

export interface FuzzFailure {
  dialect: 'codex' | 'claude-code'
  event: string
  iteration: number
  kind: string
  error: string
}

export interface FuzzParsersResult {
  seed: number
  /** Replies parsed, per dialect. */
  replies: number
  /** Merges of 1–4 parsed replies, per dialect. */
  merges: number
  /** Replies per stdout kind (both dialects see the same replies). */
  kinds: Record<string, number>
  failures: FuzzFailure[]
}

const CODEX_STATUSES = new Set(['completed', 'failed', 'blocked', 'stopped'])
const CLAUDE_STATUSES = new Set(['success', 'blocking', 'error', 'timeout', 'cancelled'])

/**
 * `iterations` random hook replies through each dialect's output parsing (Codex `parseHandlerOutput`, Claude Code
 * `readHookOutput`) and then its merge, in this process. A throw, or a result outside the documented shape, is a
 * failure; the seed replays the run.
 */
export function fuzzParsers(options: { seed: number; iterations: number }): FuzzParsersResult {
  const rng = prng(options.seed)
  const result: FuzzParsersResult = { seed: options.seed, replies: 0, merges: 0, kinds: {}, failures: [] }
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const group = Array.from({ length: 1 + rng.int(4) }, () => randomHookReply(rng))
    for (const reply of group) result.kinds[reply.kind] = (result.kinds[reply.kind] ?? 0) + 1
    result.replies += group.length
    result.merges++
    const fail = (dialect: FuzzFailure['dialect'], event: string, error: unknown, kind = group.map((reply) => reply.kind).join('+')) =>
      result.failures.push({
        dialect,
        event,
        iteration,
        kind,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      })
    const codexEvent = rng.pick(CODEX_EVENTS)
    try {
      codexGroup(codexEvent, group)
    } catch (error) {
      fail('codex', codexEvent, error)
    }
    const claudeEvent = rng.pick(CLAUDE_EVENTS)
    try {
      claudeGroup(claudeEvent, group, rng)
    } catch (error) {
      fail('claude-code', claudeEvent, error)
    }
  }
  return result
}

function codexGroup(event: (typeof CODEX_EVENTS)[number], group: readonly RandomHookReply[]): void {
  const outcomes = group.map((reply) =>
    parseHandlerOutput(event, {
      exitCode: reply.exitCode,
      stdout: decoded(reply.stdout),
      stderr: decoded(reply.stderr),
      timedOut: reply.timedOut,
      timeoutSec: 1,
    }),
  )
  for (const outcome of outcomes) checkCodexOutcome(outcome)
  const merged = mergeOutcomes(
    event,
    outcomes.map((outcome, index) => ({ outcome, completionIndex: group.length - 1 - index, runId: `run-${index}` })),
  )
  if (typeof merged !== 'object' || merged === null) throw new Error(`merge gave ${String(merged)}`)
}

function checkCodexOutcome(outcome: HandlerOutcome): void {
  if (!CODEX_STATUSES.has(outcome.status)) throw new Error(`status ${String(outcome.status)}`)
  for (const entry of outcome.entries)
    if (typeof entry.text !== 'string') throw new Error(`a ${entry.kind} entry's text is ${typeof entry.text}`)
  for (const context of outcome.contexts) if (typeof context !== 'string') throw new Error(`a context is ${typeof context}`)
  if (outcome.block !== undefined && typeof outcome.block.reason !== 'string') throw new Error('a block without a string reason')
}

function claudeGroup(event: string, group: readonly RandomHookReply[], rng: Prng): void {
  const runs: ClaudeMergeRun[] = group.map((reply, index) => {
    const output = readHookOutput(
      {
        kind: 'command',
        exitCode: reply.exitCode,
        stdout: decoded(reply.stdout),
        stderr: decoded(reply.stderr),
        timedOut: reply.timedOut,
        aborted: rng.chance(0.02),
      },
      { event, timeoutSec: 1 },
    )
    checkClaudeOutput(output)
    return { label: `hook-${index}`, output, completionIndex: group.length - 1 - index }
  })
  const merge =
    { PreToolUse: mergePreToolUse, PermissionRequest: mergePermissionRequest, PostToolUse: mergePostToolUse }[event] ?? mergeGate
  const merged = merge(runs)
  if (typeof merged !== 'object' || merged === null) throw new Error(`merge gave ${String(merged)}`)
}

function checkClaudeOutput(output: HookOutput): void {
  if (!CLAUDE_STATUSES.has(output.status)) throw new Error(`status ${String(output.status)}`)
  if (output.status === 'error' && typeof output.error !== 'string') throw new Error('an error without its text')
}
