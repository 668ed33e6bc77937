import { type KernelApi, type Session, type SessionStartPayload, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { mergeGate } from '../io/merge.js'
import { additionalContextText, hookName, successText } from '../io/texts.js'
import { hookTextMessage, PLUGIN_NAME } from '../render/hook-text.js'
import { resumeFields } from './resume-fields.js'
import { persistOutput, runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * SessionStart: contexts first in the context; exit 2 reaches the user only; `continue:false` ends the next turn. Its
 * fields as Claude Code 2.1.332 sends them: `resume` adds the prompt-cache bookkeeping (`resumeFields`), `compact` the
 * model's name (`startup` neither).
 */
export async function runSessionStart(ctx: TapContext, { session, source, signal, halt }: SessionStartPayload): Promise<void> {
  const fields =
    source === 'resume' && willRun(ctx, session, source)
      ? { source, ...resumeFields(session, ctx.modelName()) }
      : source === 'compact'
        ? { source, model: ctx.modelName() }
        : { source }
  const gate = mergeGate(await runFor(ctx, session, { event: 'SessionStart', subject: source, fields, signal }))
  const hook = hookName('SessionStart')
  const texts = [
    ...gate.contexts.map((text) => additionalContextText(hook, persistOutput(ctx, session, 'SessionStart', 'additionalContext')(text))),
    ...gate.plainStdout.map((text) => successText(hook, persistOutput(ctx, session, 'SessionStart', 'stdout')(text))),
  ]
  for (const text of texts) session.inject(hookTextMessage(text, { kind: 'session', event: 'SessionStart', hookName: hook }))
  for (const block of gate.blocks) session.notice('warning', `SessionStart hook error: ${block.reason}`, PLUGIN_NAME)
  if (gate.stop) halt({ reason: gate.stop.reason ?? 'a SessionStart hook stopped the session' })
}

/** Whether a SessionStart handler runs for `source`: the resume fields read the session's log, only for one. */
function willRun(ctx: TapContext, session: Session, source: string): boolean {
  return (stateOf(ctx, session)?.selector.select({ event: 'SessionStart', subject: source, cwd: session.cwd }).runnable.length ?? 0) > 0
}

/**
 * SessionStart `compact`, then the compaction's PostCompact that waited for it: Claude Code's order (the kernel fires
 * `agent/post-compact` before `agent/session-start`).
 */
export async function runCompactSessionStart(ctx: TapContext, payload: SessionStartPayload): Promise<void> {
  try {
    await runSessionStart(ctx, payload)
  } finally {
    await runHeldPostCompact(ctx, payload.session)
  }
}

async function runHeldPostCompact(ctx: TapContext, session: Session): Promise<void> {
  const state = stateOf(ctx, session)
  const held = state?.heldPostCompact
  if (!state || !held) return
  state.heldPostCompact = undefined
  await held()
}

/** SessionEnd, SubagentStart and compaction. */
export function tapLifecycleEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.sessionEnd.tapPromise({ name: PLUGIN_NAME, stage: STAGE_OBSERVE }, async ({ session }) => {
    const state = ctx.states.get(session)
    if (!state) return
    // A PostCompact still held (no SessionStart `compact` followed its compaction) runs before SessionEnd.
    await runHeldPostCompact(ctx, session)
    const deadline = Date.now() + ctx.sessionEndTimeoutMs
    await runFor(ctx, session, { event: 'SessionEnd', subject: 'other', fields: { reason: 'other' }, budgetMs: ctx.sessionEndTimeoutMs })
    await settledWithin([...state.inFlight], deadline - Date.now())
    state.detached.abort()
    await Promise.allSettled([...state.inFlight])
    ctx.states.delete(session)
  })

  kernel.hooks.subagentStart.tapPromise(PLUGIN_NAME, async ({ session, turn, agent, signal }) => {
    const gate = mergeGate(
      await runFor(ctx, session, { event: 'SubagentStart', turnId: turn.id, subject: agent.type, agent, fields: {}, signal }),
    )
    const hook = hookName('SubagentStart')
    for (const text of gate.contexts)
      session.inject(
        hookTextMessage(additionalContextText(hook, persistOutput(ctx, session, 'SubagentStart', 'additionalContext')(text)), {
          kind: 'note',
          event: 'SubagentStart',
          hookName: hook,
        }),
      )
    for (const block of gate.blocks) session.notice('warning', `SubagentStart hook error: ${block.reason}`, PLUGIN_NAME)
  })

  kernel.hooks.preCompact.tapPromise(PLUGIN_NAME, async (decision, { session, trigger, turn, signal, instructions }) => {
    // A manual compaction outside a turn is Claude Code's `/compact`, a prompt: its hooks carry a prompt id of their own.
    if (trigger === 'manual' && turn === undefined) stateOf(ctx, session)?.enterCommand()
    const gate = mergeGate(
      await runFor(ctx, session, {
        event: 'PreCompact',
        turnId: turn?.id,
        subject: trigger,
        fields: { trigger, custom_instructions: instructions ?? null },
        signal,
      }),
    )
    const block = gate.blocks[0]
    if (gate.stop || block) return { kind: 'halt', reason: gate.stop?.reason ?? `PreCompact hook blocked the compaction: ${block?.reason}` }
    return decision
  })

  // Held until SessionStart `compact` has run (runCompactSessionStart), which the kernel fires next.
  kernel.hooks.postCompact.tapPromise(PLUGIN_NAME, async ({ session, trigger, turn, signal, summary }) => {
    const state = stateOf(ctx, session)
    if (!state) return
    await runHeldPostCompact(ctx, session)
    state.heldPostCompact = () =>
      runFor(ctx, session, {
        event: 'PostCompact',
        turnId: turn?.id,
        subject: trigger,
        fields: { trigger, ...(summary === undefined ? {} : { compact_summary: summary }) },
        signal,
      })
  })
}

/** Waits for detached runs to finish, at most `ms`; the rest are then cancelled (and record that). */
async function settledWithin(runs: Promise<unknown>[], ms: number): Promise<void> {
  if (runs.length === 0 || ms <= 0) return
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  await Promise.race([Promise.allSettled(runs), timeout])
  clearTimeout(timer)
}
