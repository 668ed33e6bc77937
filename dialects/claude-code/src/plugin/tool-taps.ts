import type { KernelApi, Message, PreToolDecision } from '@harness-kernel/kernel'
import { mcpServerField } from '../io/mcp-server.js'
import { mergePermissionRequest, mergePostToolUse, mergePreToolUse } from '../io/merge.js'
import { additionalContextText, blockingErrorText, hookName, toolErrorText } from '../io/texts.js'
import { inputFromClaude, toolFailureError, toolResponse, wasInterrupted } from '../io/tool-presentation.js'
import { PERMISSION_TEXTS } from '../permissions/index.js'
import { hookTextMessage, PLUGIN_NAME } from '../render/hook-text.js'
import { claudeView, persistOutput, runFor, stateOf, type TapContext } from './tap-context.js'

/** PreToolUse, PermissionRequest (and its Notification), PostToolUse and PostToolUseFailure on the tool points. */
export function tapToolEvents(kernel: KernelApi, ctx: TapContext): void {
  const toolTexts = (event: string, toolName: string, callId: string, texts: string[]): Message[] =>
    texts.map((text) => hookTextMessage(text, { kind: 'tool', event, hookName: hookName(event, toolName), toolCallId: callId }))
  // `mcp_server`, last in the tool events of an MCP server's tool (undefined, so left out, for any other tool).
  const mcpServerOf = (toolName: string) => mcpServerField(ctx.tools.get(toolName))

  kernel.hooks.toolPreExecute.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, signal }): Promise<PreToolDecision> => {
    const state = stateOf(ctx, session)
    if (state?.refusedBeforeHooks.has(call.id)) return decision
    state?.callStarted.set(call.id, Date.now())
    const view = claudeView(ctx, session, call)
    const runs = await runFor(ctx, session, {
      event: 'PreToolUse',
      turnId: turn.id,
      subject: view.toolName,
      tool: { name: view.toolName, input: view.toolInput, callId: call.id },
      fields: { tool_name: view.toolName, tool_input: view.toolInput, tool_use_id: call.id, mcp_server: mcpServerOf(call.name) },
      signal,
    })
    if (runs.length === 0) return decision
    const merged = mergePreToolUse(runs)
    const hook = hookName('PreToolUse', view.toolName)
    const context = [
      ...(decision.context ?? []),
      ...toolTexts(
        'PreToolUse',
        view.toolName,
        call.id,
        merged.contexts.map((text) =>
          additionalContextText(hook, persistOutput(ctx, session, 'PreToolUse', 'additionalContext', call.id)(text)),
        ),
      ),
    ]
    const halt = merged.stop ? { reason: merged.stop.reason ?? 'a PreToolUse hook stopped the turn' } : undefined
    if (merged.exit2 !== undefined) return { kind: 'deny', reason: toolErrorText(hook, merged.exit2), context, ...(halt ? { halt } : {}) }
    if (merged.verdict === 'deny') {
      return { kind: 'deny', reason: toolErrorText(hook, merged.reason ?? 'denied'), context, ...(halt ? { halt } : {}) }
    }
    if (merged.verdict === 'defer') {
      const reason = `The call was deferred by a PreToolUse hook${merged.reason ? `: ${merged.reason}` : ''}`
      return { kind: 'deny', reason, context, halt: { reason: 'tool_deferred' } }
    }
    if (halt && ctx.fixes.haltBeforeTool) return { kind: 'deny', reason: halt.reason, context, halt }
    if (merged.verdict === 'ask' && decision.kind !== 'deny') {
      state?.hookAsks.add(call.id)
      return { kind: 'ask', ...(merged.reason === undefined ? {} : { reason: merged.reason }), context }
    }
    if (decision.kind !== 'allow') return { ...decision, context }
    if (merged.verdict === 'allow') state?.hookAllows.add(call.id)
    const input = merged.verdict === 'allow' && merged.updatedInput ? inputFromClaude(view.toolName, merged.updatedInput) : decision.input
    return {
      kind: 'allow',
      ...(input === undefined ? {} : { input }),
      context,
      ...(halt ? { halt } : decision.halt ? { halt: decision.halt } : {}),
    }
  })

  kernel.hooks.toolPermissionRequest.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, reason, signal }) => {
    if (decision.kind !== 'undecided') return decision
    const state = stateOf(ctx, session)
    if (state?.hookAsks.delete(call.id) && !ctx.fixes.askRunsPermissionRequest) {
      return ctx.hookAsk() === 'deny' ? { kind: 'deny', reason: reason ?? 'A PreToolUse hook asked for approval' } : decision
    }
    const view = claudeView(ctx, session, call)
    const asked = state?.permissions.asks.get(call.id)
    state?.permissions.asks.delete(call.id)
    const merged = mergePermissionRequest(
      await runFor(ctx, session, {
        event: 'PermissionRequest',
        turnId: turn.id,
        subject: view.toolName,
        tool: { name: view.toolName, input: view.toolInput },
        // What Claude Code's permissions suggest for their own asks (nothing for an ask rule's); none for other asks.
        fields: {
          tool_name: view.toolName,
          tool_input: view.toolInput,
          permission_suggestions: asked === undefined ? [] : asked.suggestions,
          mcp_server: mcpServerOf(call.name),
        },
        signal,
      }),
    )
    if (merged.behavior === 'deny') {
      if (merged.interrupt) {
        queueMicrotask(() =>
          session.interrupt('a PermissionRequest hook interrupted the turn', { by: 'system', cause: 'permission-denied' }),
        )
      }
      return { kind: 'deny', reason: merged.message ?? '' }
    }
    if (merged.behavior === 'allow') {
      return merged.updatedInput ? { kind: 'allow', input: inputFromClaude(view.toolName, merged.updatedInput) } : { kind: 'allow' }
    }
    // Nobody to ask (as `claude -p`): the model is told what the prompt would have said.
    if (asked !== undefined && ctx.noApprover()) return { kind: 'deny', reason: asked.message }
    // Detached, like a notification: the approver is asked at once; the session's end waits for the run.
    state?.track(
      runFor(ctx, session, {
        event: 'Notification',
        turnId: turn.id,
        subject: 'permission_prompt',
        fields: { message: `Claude needs your permission to use ${view.toolName}`, notification_type: 'permission_prompt' },
        detached: true,
      }),
    )
    // The prompt is Claude Code's: a refusal tells the model what Claude Code tells it, and an approval for the session
    // applies what the prompt suggested.
    if (asked === undefined) return decision
    const suggestions = asked.suggestions ?? []
    return {
      kind: 'undecided',
      refusal: PERMISSION_TEXTS.userRejected,
      onAnswer: (answer) => {
        if (answer.kind === 'allow' && answer.remember === 'session' && state) state.permissions.approveForSession(suggestions)
      },
    }
  })

  kernel.hooks.toolPostExecute.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, result, signal }) => {
    if (signal.aborted) return decision
    const state = stateOf(ctx, session)
    const started = state?.callStarted.get(call.id)
    state?.callStarted.delete(call.id)
    const durationMs = started === undefined ? 0 : Date.now() - started
    const view = claudeView(ctx, session, call)
    const failed = result.isError
    const event = failed ? 'PostToolUseFailure' : 'PostToolUse'
    const fields = failed
      ? {
          tool_name: view.toolName,
          tool_input: view.toolInput,
          tool_use_id: call.id,
          error: toolFailureError(view.toolName, result),
          is_interrupt: wasInterrupted(result),
          duration_ms: durationMs,
          mcp_server: mcpServerOf(call.name),
        }
      : {
          tool_name: view.toolName,
          tool_input: view.toolInput,
          tool_response: toolResponse(view.toolName, result, view.toolInput, {
            violations: state?.permissions.sandbox.peekViolations(call.id),
            ranOutside: state?.permissions.sandbox.ranOutside.has(call.id),
          }),
          tool_use_id: call.id,
          duration_ms: durationMs,
          mcp_server: mcpServerOf(call.name),
        }
    const runs = await runFor(ctx, session, {
      event,
      turnId: turn.id,
      subject: view.toolName,
      tool: { name: view.toolName, input: view.toolInput, callId: call.id },
      fields,
      signal,
    })
    if (runs.length === 0) return decision
    const merged = mergePostToolUse(runs)
    const hook = hookName(event, view.toolName)
    const texts = [
      ...merged.blocks.map((block) => blockingErrorText(hook, block.command, block.reason)),
      ...merged.contexts.map((text) => additionalContextText(hook, persistOutput(ctx, session, event, 'additionalContext', call.id)(text))),
    ]
    const context = [...(decision.context ?? []), ...toolTexts(event, view.toolName, call.id, texts)]
    if (decision.kind === 'block') return { ...decision, context }
    const halt = merged.stop ? { reason: merged.stop.reason ?? `a ${event} hook stopped the turn` } : decision.halt
    const output =
      merged.updatedToolOutput === undefined
        ? decision.output
        : typeof merged.updatedToolOutput === 'string'
          ? merged.updatedToolOutput
          : JSON.stringify(merged.updatedToolOutput)
    return { kind: 'accept', ...(output === undefined ? {} : { output }), context, ...(halt ? { halt } : {}) }
  })
}
