import type { KernelApi, Message, Session, StopDecision } from '@harness-kernel/kernel'
import { type GateMerge, mergeGate } from '../io/merge.js'
import { blockingErrorText, hookName, STOP_FEEDBACK_SUFFIX, stopCapWarning, stopFeedbackText } from '../io/texts.js'
import { hookTextMessage, PLUGIN_NAME, stopFeedbackMeta } from '../render/hook-text.js'
import { runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * Stop and SubagentStop: a block (exit 2 or `decision:block`) continues the same turn with exactly one more request;
 * the block after `stopHookBlockCap` continuations in a row ends the turn anyway, with Claude Code's warning.
 */
export function tapStopEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.turnStopping.tapPromise(PLUGIN_NAME, async (decision, { session, turn, signal, stopHookActive, lastAssistantMessage }) => {
    const state = stateOf(ctx, session)
    if (!state || decision.kind === 'continue') return decision
    state.enterTurn(turn.id)
    const gate = mergeGate(
      await runFor(ctx, session, {
        event: 'Stop',
        turnId: turn.id,
        fields: {
          stop_hook_active: stopHookActive,
          last_assistant_message: lastAssistantMessage ?? '',
          background_tasks: [],
          session_crons: [],
        },
        signal,
      }),
    )
    const outcome = stopOutcome(ctx, session, 'Stop', gate, decision, state.stopBlocks)
    state.stopBlocks = outcome.blocks
    return outcome.decision
  })

  kernel.hooks.subagentStop.tapPromise(
    PLUGIN_NAME,
    async (decision, { session, turn, agent, signal, stopHookActive, lastAssistantMessage }) => {
      const state = stateOf(ctx, session)
      if (!state || decision.kind === 'continue') return decision
      const gate = mergeGate(
        await runFor(ctx, session, {
          event: 'SubagentStop',
          turnId: turn.id,
          subject: agent.type,
          agent,
          fields: {
            stop_hook_active: stopHookActive,
            // The subagent's own log (Claude Code writes `<session>/subagents/agent-<id>.jsonl`; ours is the kernel log).
            // A plugin firing the point for a session that is no subagent's has none to name.
            ...(session.parent === undefined ? {} : { agent_transcript_path: session.transcriptPath }),
            last_assistant_message: lastAssistantMessage ?? '',
            background_tasks: [],
            session_crons: [],
          },
          signal,
        }),
      )
      const outcome = stopOutcome(ctx, session, 'SubagentStop', gate, decision, state.subagentStopBlocks.get(agent.id) ?? 0)
      state.subagentStopBlocks.set(agent.id, outcome.blocks)
      return outcome.decision
    },
  )
}

function stopOutcome(
  ctx: TapContext,
  session: Session,
  event: 'Stop' | 'SubagentStop',
  gate: GateMerge,
  decision: StopDecision,
  blocksSoFar: number,
): { decision: StopDecision; blocks: number } {
  if (gate.stop) {
    if (gate.stop.reason) session.notice('info', gate.stop.reason, PLUGIN_NAME)
    return { decision: { kind: 'stop' }, blocks: 0 }
  }
  if (gate.blocks.length === 0) return { decision, blocks: 0 }
  const blocks = blocksSoFar + 1
  if (ctx.stopHookBlockCap > 0 && blocks > ctx.stopHookBlockCap) {
    session.notice('warning', stopCapWarning(blocks), PLUGIN_NAME)
    return { decision: { kind: 'stop' }, blocks: 0 }
  }
  const name = hookName(event)
  const messages: Message[] = gate.blocks.map((block) => {
    if (block.form === 'exit2') {
      const text = stopFeedbackText(block.reason)
      return hookTextMessage(text, {
        kind: 'stop',
        event,
        hookName: name,
        form: 'exit2',
        ...stopFeedbackMeta(block.reason, text, STOP_FEEDBACK_SUFFIX),
      })
    }
    const text = blockingErrorText(name, block.command, block.reason)
    return hookTextMessage(text, { kind: 'stop', event, hookName: name, form: 'json', ...stopFeedbackMeta(block.reason, text) })
  })
  return { decision: { kind: 'continue', messages }, blocks }
}
