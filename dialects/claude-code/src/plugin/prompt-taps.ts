import { capHookText } from '@harness-kernel/hook-protocol'
import { type Halt, type KernelApi, type Message, type PreStepDecision, type Session, textOf, toolCallsOf } from '@harness-kernel/kernel'
import { mergeGate } from '../io/merge.js'
import { additionalContextText, hookName, promptBlockedWarning, successText } from '../io/texts.js'
import { presentTool } from '../io/tool-presentation.js'
import { hookTextMessage, PLUGIN_NAME } from '../render/hook-text.js'
import type { ClaudeSessionState } from './session-state.js'
import { persistOutput, runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * `agent/pre-step`: PostToolBatch first on a tool continuation, then UserPromptSubmit once per new user item (the
 * prompt and each steered message). A blocked first prompt rejects the turn; a blocked steered item alone is dropped
 * (its claim is still accepted, so it is never redelivered).
 */
export function tapPromptEvents(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.preStep.tapPromise(PLUGIN_NAME, async (decision, { session, turn, step, signal }): Promise<PreStepDecision> => {
    if (decision.kind !== 'enter') return decision
    const state = stateOf(ctx, session)
    if (!state) return decision
    // Inside a subagent Claude Code runs PostToolBatch but no UserPromptSubmit, and keeps the main turn's prompt_id.
    if (session.parent === undefined) state.enterTurn(turn.id)
    if (step > 1) {
      const halt = await postToolBatch(ctx, session, state, turn.id, signal)
      if (halt) return { ...decision, halt }
    }
    const messages: Message[] = []
    let halt: Halt | undefined
    let users = 0
    let kept = 0
    let blockedWarning: string | undefined
    const hook = hookName('UserPromptSubmit')
    for (const message of decision.messages) {
      if (message.role !== 'user' || halt || session.parent !== undefined) {
        if (message.role !== 'user' || session.parent !== undefined) messages.push(message)
        continue
      }
      users++
      for (const text of state.asyncContexts.splice(0))
        messages.push(
          hookTextMessage(additionalContextText(hook, capHookText(text)), { kind: 'note', event: 'UserPromptSubmit', hookName: hook }),
        )
      const prompt = textOf(message)
      const gate = mergeGate(await runFor(ctx, session, { event: 'UserPromptSubmit', turnId: turn.id, fields: { prompt }, signal }))
      if (gate.blocks.length > 0 || gate.stop) {
        const block = gate.blocks[0]
        const warning = promptBlockedWarning(block?.reason ?? gate.stop?.reason ?? 'blocked', prompt)
        blockedWarning ??= warning
        session.notice('warning', warning, PLUGIN_NAME)
        if (gate.stop) halt = { reason: gate.stop.reason ?? 'a UserPromptSubmit hook stopped the turn' }
        continue
      }
      const texts = [
        ...gate.contexts.map((text) =>
          additionalContextText(hook, persistOutput(ctx, session, 'UserPromptSubmit', 'additionalContext')(text)),
        ),
        ...gate.plainStdout.map((text) => successText(hook, persistOutput(ctx, session, 'UserPromptSubmit', 'stdout')(text))),
      ]
      for (const text of texts) messages.push(hookTextMessage(text, { kind: 'prompt', event: 'UserPromptSubmit', hookName: hook }))
      messages.push(message)
      kept++
    }
    if (step === 1 && users > 0 && kept === 0 && !halt)
      return { kind: 'reject', reason: blockedWarning ?? 'blocked by a UserPromptSubmit hook' }
    return { kind: 'enter', messages, ...(decision.context ? { context: decision.context } : {}), ...(halt ? { halt } : {}) }
  })
}

/** After all results of one assistant message, denied calls included; a block or `continue:false` halts the turn. */
async function postToolBatch(
  ctx: TapContext,
  session: Session,
  state: ClaudeSessionState,
  turnId: string,
  signal: AbortSignal,
): Promise<Halt | undefined> {
  const history = session.messages
  const assistant = history.findLast((message) => message.role === 'assistant')
  if (!assistant || state.batched.has(assistant)) return undefined
  state.batched.add(assistant)
  const calls = toolCallsOf(assistant)
  if (calls.length === 0) return undefined
  const outputs = new Map<string, string>()
  for (const message of history) {
    for (const block of message.content) if (block.type === 'tool_result') outputs.set(block.callId, block.output)
  }
  const toolCalls = calls.map((call) => {
    const view = presentTool(call.name, call.input, ctx.tools.get(call.name)?.aliases, session.cwd)
    const output = outputs.get(call.id) ?? ''
    // An Agent call's entry is the report's text blocks, as the model gets them (Claude Code 2.1.332, a01-subagent).
    const response = view.toolName === 'Agent' ? [{ type: 'text', text: output }] : output
    return { tool_name: view.toolName, tool_input: view.toolInput, tool_use_id: call.id, tool_response: response }
  })
  const gate = mergeGate(await runFor(ctx, session, { event: 'PostToolBatch', turnId, fields: { tool_calls: toolCalls }, signal }))
  if (gate.stop) return { reason: gate.stop.reason ?? 'a PostToolBatch hook stopped the turn' }
  const block = gate.blocks[0]
  return block ? { reason: `PostToolBatch hook blocked the turn: ${block.reason}` } : undefined
}
