import { type KernelApi, type SessionStartPayload, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { mergeGate } from '../io/merge.js'
import { additionalContextText, hookName, successText } from '../io/texts.js'
import { hookTextMessage, PLUGIN_NAME } from '../render/hook-text.js'
import { persistOutput, runFor, type TapContext } from './tap-context.js'

/** SessionStart: contexts first in the context; exit 2 reaches the user only; `continue:false` ends the next turn. */
export async function runSessionStart(ctx: TapContext, { session, source, signal, halt }: SessionStartPayload): Promise<void> {
  const gate = mergeGate(await runFor(ctx, session, { event: 'SessionStart', subject: source, fields: { source }, signal }))
  const hook = hookName('SessionStart')
  const texts = [
    ...gate.contexts.map((text) => additionalContextText(hook, persistOutput(ctx, session, 'SessionStart', 'additionalContext')(text))),
    ...gate.plainStdout.map((text) => successText(hook, persistOutput(ctx, session, 'SessionStart', 'stdout')(text))),
  ]
  for (const text of texts) session.inject(hookTextMessage(text, { kind: 'session', event: 'SessionStart', hookName: hook }))
  for (const block of gate.blocks) session.notice('warning', `SessionStart hook error: ${block.reason}`, PLUGIN_NAME)
  if (gate.stop) halt({ reason: gate.stop.reason ?? 'a SessionStart hook stopped the session' })
}

/** SessionEnd, SubagentStart and compaction. */
export function tapLifecycleEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.sessionEnd.tapPromise({ name: PLUGIN_NAME, stage: STAGE_OBSERVE }, async ({ session }) => {
    const state = ctx.states.get(session)
    if (!state) return
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

  kernel.hooks.postCompact.tapPromise(PLUGIN_NAME, async ({ session, trigger, turn, signal, summary }) => {
    await runFor(ctx, session, {
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
