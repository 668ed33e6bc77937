import type { KernelApi, StopDecision } from '@harness-kernel/kernel'
import { mergeStop } from '../io/merge.js'
import { hookPromptMessage } from './messages.js'
import { PLUGIN_NAME } from './run-event.js'
import { runFor, stateOf, type TapContext } from './tap-context.js'

/** Stop on `agent/turn-stopping`: blocks continue the same turn with a `<hook_prompt>` user message. */
export function tapStopEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.turnStopping.tapPromise(PLUGIN_NAME, async (decision, { session, turn, stopHookActive, lastAssistantMessage, signal }) => {
    const merged = mergeStop(
      await runFor(ctx, session, { event: 'Stop', turnId: turn.id, fields: { stopHookActive, lastAssistantMessage }, signal }),
    )
    return stopDecision(ctx, session, turn.id, decision, merged)
  })

  kernel.hooks.subagentStop.tapPromise(
    PLUGIN_NAME,
    async (decision, { session, turn, agent, stopHookActive, lastAssistantMessage, signal }) => {
      const merged = mergeStop(
        await runFor(ctx, session, {
          event: 'SubagentStop',
          turnId: turn.id,
          subjects: [agent.type],
          // The parent's log is `transcript_path`, the subagent's own `agent_transcript_path` (codex-hooks.md §5.2).
          fields: {
            agentId: agent.id,
            agentType: agent.type,
            transcriptPath: session.parent?.session.transcriptPath ?? session.transcriptPath,
            agentTranscriptPath: session.parent === undefined ? null : session.transcriptPath,
            stopHookActive,
            lastAssistantMessage,
          },
          signal,
        }),
      )
      return stopDecision(ctx, session, turn.id, decision, merged)
    },
  )
}

function stopDecision(
  ctx: TapContext,
  session: Parameters<TapContext['states']['get']>[0],
  turnId: string,
  decision: StopDecision,
  merged: ReturnType<typeof mergeStop>,
): StopDecision {
  if (merged.action === 'stop') {
    session.notice('info', `Stop hook ended the turn${merged.stopReason ? `: ${merged.stopReason}` : ''}`, PLUGIN_NAME)
    return { kind: 'stop', ...(decision.kind === 'stop' && decision.context ? { context: decision.context } : {}) }
  }
  if (merged.action !== 'continue') return decision
  const cap = ctx.fixes.stopContinuationCap
  const state = stateOf(ctx, session)
  const count = (state?.stopContinuations.get(turnId) ?? 0) + 1
  state?.stopContinuations.set(turnId, count)
  if (cap !== undefined && count > cap) {
    session.notice(
      'warning',
      `Stop hooks asked to continue ${count} times; stopping the turn (fixes.stopContinuationCap ${cap})`,
      PLUGIN_NAME,
    )
    return decision
  }
  return { kind: 'continue', messages: [hookPromptMessage(merged.fragments)] }
}
