import { errorMessage } from '../errors.js'
import type { ModelResponse } from '../model.js'
import { callModel } from '../model-call.js'
import type { UsageRecord } from '../session-events.js'
import type { SessionRuntime } from '../session-runtime.js'
import type { TurnInfo } from '../session-types.js'
import type { Compactor } from './compactor.js'
import { estimateTokens } from './default-compactor.js'

export interface CompactionRequest {
  trigger: 'manual' | 'auto'
  turn: TurnInfo | undefined
  signal: AbortSignal
  instructions?: string | undefined
}

/** What a compaction came to. */
export type CompactionResult =
  | { status: 'compacted'; kept: number; summary: string }
  | { status: 'halted'; reason: string }
  | { status: 'failed'; error: string }
  | { status: 'skipped'; reason: string }

/**
 * Replaces the conversation with a summary: `agent/pre-compact` (a halt stops it), the summary from the session's
 * model, a `compaction` event with what the compactor puts before the summary (`prefix`) and keeps after it (`kept`)
 * (the transcript follows it), its context recorded, `agent/post-compact`, then `agent/session-start` with `compact`
 * (both programs' SessionStart after a compaction; what its taps inject is recorded at once for an `auto` one, the
 * turn's next request following). A failed summary leaves the conversation as it was, with an error notice.
 */
export async function runCompaction(rt: SessionRuntime, compactor: Compactor, request: CompactionRequest): Promise<CompactionResult> {
  const { trigger, turn, signal } = request
  const messages = [...rt.transcript.messages]
  if (messages.length === 0) return { status: 'skipped', reason: 'there is nothing to compact' }
  const payload = { session: rt.session, trigger, turn, signal, instructions: request.instructions }
  const decision = await rt.hooks.preCompact.promise({ kind: 'proceed' }, payload)
  if (decision.kind === 'halt') {
    rt.notice('warning', `compaction halted: ${decision.reason}`, 'kernel')
    return { status: 'halted', reason: decision.reason }
  }
  const tools = rt.tools.specs()
  const system = rt.options.system
  let summary: string
  // The summary's model calls spend like a step's: recorded (and so counted against budgets) whatever comes of them.
  const spend = (response: ModelResponse) => {
    if (response.usage === undefined || rt.lost !== undefined) return
    const record: UsageRecord = { usage: response.usage, purpose: 'compaction' }
    if (response.model !== undefined) record.model = response.model
    rt.recordUsage(turn?.id, record)
  }
  try {
    summary = await compactor.summarize({
      messages,
      system,
      tools,
      instructions: request.instructions,
      sample: async (summaryRequest) => {
        const response = await callModel(rt.model, summaryRequest, {
          signal,
          sessionId: rt.session.id,
          turnId: turn?.id ?? 'compaction',
          step: 0,
          retry: rt.options.modelRetry,
          onRetry: (message) => rt.notice('warning', message, 'kernel'),
        })
        spend(response)
        return response
      },
    })
  } catch (error) {
    signal.throwIfAborted()
    const text = `compaction failed, the conversation is kept as it was: ${errorMessage(error)}`
    rt.notice('error', text, 'kernel')
    return { status: 'failed', error: text }
  }
  const prefix = compactor.prefix?.(messages) ?? []
  let kept = Math.min(Math.max(0, Math.floor(compactor.keep(messages))), messages.length)
  // A kept tool result whose call was summarized away would make every later request invalid.
  while (kept > 0 && messages[messages.length - kept]?.role === 'tool') kept--
  const tokensBefore =
    trigger === 'auto' ? Math.round(estimateTokens({ ...(system === undefined ? {} : { system }), messages, tools })) : undefined
  rt.append({
    type: 'compaction',
    ...(turn === undefined ? {} : { turnId: turn.id }),
    trigger,
    summary,
    kept,
    ...(prefix.length === 0 ? {} : { prefix }),
    ...(tokensBefore === undefined ? {} : { tokensBefore }),
  })
  for (const message of decision.context ?? []) rt.recordMessage(turn?.id, message)
  await rt.hooks.postCompact.promise({ ...payload, summary })
  await rt.hooks.sessionStart.promise({
    session: rt.session,
    source: 'compact',
    signal,
    halt: (halt) => {
      rt.pending.halt = halt
    },
  })
  // Mid-turn, the next request follows at once: what session-start taps injected goes in right after the summary.
  if (trigger === 'auto') for (const message of rt.pending.injected.splice(0)) rt.recordMessage(turn?.id, message)
  return { status: 'compacted', kept, summary }
}
