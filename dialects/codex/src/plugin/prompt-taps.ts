import { type Halt, type KernelApi, type Message, type PreStepDecision, textOf } from '@harness-kernel/kernel'
import { mergeGate } from '../io/merge.js'
import { codexContexts } from './messages.js'
import { PLUGIN_NAME } from './run-event.js'
import { runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * `agent/pre-step`: SessionStart runs lazily before the first prompt it precedes; UserPromptSubmit runs once per
 * user item (the prompt and each steered item). A blocked item is dropped, its contexts are still recorded.
 */
export function tapPromptEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.preStep.tapPromise(PLUGIN_NAME, async (decision, { session, turn, step, signal }): Promise<PreStepDecision> => {
    if (decision.kind !== 'enter') return decision
    const state = stateOf(ctx, session)
    if (!state) return decision
    const messages: Message[] = []
    if (state.pendingSessionStart !== undefined && decision.messages.some((message) => message.role === 'user')) {
      const source = state.pendingSessionStart
      state.pendingSessionStart = undefined
      const gate = mergeGate(
        await runFor(ctx, session, { event: 'SessionStart', turnId: turn.id, subjects: [source], fields: { source }, signal }),
      )
      messages.push(...codexContexts(gate.contexts))
      if (gate.stopped) return { kind: 'enter', messages, halt: { reason: gate.stopReason ?? 'a SessionStart hook stopped the session' } }
    }
    let halt: Halt | undefined
    let users = 0
    let kept = 0
    let blockReason: string | undefined
    for (const message of decision.messages) {
      // Input the harness adds (a subagent's notification) is an injected item to Codex: no UserPromptSubmit.
      const isPrompt = message.role === 'user' && message.meta?.origin !== 'harness'
      if (!isPrompt || halt) {
        if (!isPrompt) messages.push(message)
        continue
      }
      users++
      messages.push(...codexContexts(state.asyncContexts.splice(0)))
      const prompt = textOf(message)
      const gate = mergeGate(await runFor(ctx, session, { event: 'UserPromptSubmit', turnId: turn.id, fields: { prompt }, signal }))
      const contexts = codexContexts(gate.contexts)
      if (gate.blocked || gate.stopped) {
        messages.push(...contexts)
        blockReason ??= gate.blockReason ?? gate.stopReason
        session.notice('warning', `UserPromptSubmit hook blocked a prompt${gate.blockReason ? `: ${gate.blockReason}` : ''}`, PLUGIN_NAME)
        if (gate.stopped) halt = { reason: gate.stopReason ?? 'a UserPromptSubmit hook stopped the turn' }
        continue
      }
      messages.push(message, ...contexts)
      kept++
    }
    if (halt) return { kind: 'enter', messages, halt }
    if (step === 1 && users > 0 && kept === 0) {
      return { kind: 'reject', reason: blockReason ?? 'blocked by a UserPromptSubmit hook', context: messages }
    }
    return { kind: 'enter', messages, ...(decision.context ? { context: decision.context } : {}) }
  })
}
