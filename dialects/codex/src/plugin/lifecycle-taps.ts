import { randomUUID } from 'node:crypto'
import { type KernelApi, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { mergeGate } from '../io/merge.js'
import { codexContexts } from './messages.js'
import { PLUGIN_NAME } from './run-event.js'
import { runFor, stateOf, type TapContext } from './tap-context.js'

/** SessionEnd, Interrupt, compaction (and the SessionStart after it) and SubagentStart: advisory or gate events. */
export function tapLifecycleEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.sessionEnd.tapPromise({ name: PLUGIN_NAME, stage: STAGE_OBSERVE }, async ({ session, reason }) => {
    const state = ctx.states.get(session)
    if (!state) return
    // A subagent's thread ending is no session end: Codex runs SessionEnd for the session the user started.
    if (session.parent === undefined) await runFor(ctx, session, { event: 'SessionEnd', subjects: [reason], fields: { reason: 'other' } })
    state.asyncRuns.abort()
    ctx.states.delete(session)
  })

  kernel.hooks.interrupt.tapPromise(PLUGIN_NAME, async ({ session, turn }) => {
    await runFor(ctx, session, { event: 'Interrupt', turnId: turn?.id, fields: {} })
  })

  // Codex compacts inside a turn (a manual compaction is a turn of its own), so its payloads always carry one: a
  // compaction outside a kernel turn gets an id at PreCompact that its PostCompact shares.
  const manualTurns = new WeakMap<object, string>()
  const compactionTurn = (session: object, turn: { id: string } | undefined, starting: boolean) => {
    if (turn) return turn.id
    const id = (!starting && manualTurns.get(session)) || randomUUID()
    manualTurns.set(session, id)
    return id
  }

  kernel.hooks.preCompact.tapPromise(PLUGIN_NAME, async (decision, { session, trigger, turn, signal }) => {
    const turnId = compactionTurn(session, turn, true)
    const gate = mergeGate(await runFor(ctx, session, { event: 'PreCompact', turnId, subjects: [trigger], fields: { trigger }, signal }))
    return gate.stopped ? { kind: 'halt', reason: gate.stopReason ?? 'a PreCompact hook skipped the compaction' } : decision
  })

  kernel.hooks.postCompact.tapPromise(PLUGIN_NAME, async ({ session, trigger, turn, signal }) => {
    const turnId = compactionTurn(session, turn, false)
    const state = stateOf(ctx, session)
    if (state) state.lastCompaction = { trigger, turnId }
    await runFor(ctx, session, { event: 'PostCompact', turnId, subjects: [trigger], fields: { trigger }, signal })
  })

  // SessionStart `compact` (codex-hooks.md, SessionStart row): after an auto compaction at once, in the same turn;
  // after a manual one at the next turn's first step. The session's hooks stay as they were. Never in a subagent.
  kernel.hooks.sessionStart.tapPromise(PLUGIN_NAME, async ({ session, source, signal, halt }) => {
    if (source !== 'compact' || session.parent !== undefined) return
    const state = stateOf(ctx, session)
    if (!state) return
    const compaction = state.lastCompaction
    state.lastCompaction = undefined
    // Without a PostCompact before it (a plugin firing the point itself), as after a manual compaction.
    if (compaction?.trigger !== 'auto') {
      state.pendingSessionStart = source
      return
    }
    const gate = mergeGate(
      await runFor(ctx, session, { event: 'SessionStart', turnId: compaction.turnId, subjects: [source], fields: { source }, signal }),
    )
    for (const message of codexContexts(gate.contexts)) session.inject(message)
    if (gate.stopped) halt({ reason: gate.stopReason ?? 'a SessionStart hook stopped the session' })
  })

  kernel.hooks.subagentStart.tapPromise(PLUGIN_NAME, async ({ session, turn, agent, signal }) => {
    const gate = mergeGate(
      await runFor(ctx, session, {
        event: 'SubagentStart',
        turnId: turn.id,
        subjects: [agent.type],
        fields: { agentId: agent.id, agentType: agent.type },
        signal,
      }),
    )
    for (const text of gate.contexts)
      session.inject({ role: 'developer', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: PLUGIN_NAME } })
  })
}
