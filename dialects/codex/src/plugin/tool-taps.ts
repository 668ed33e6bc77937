import type { KernelApi, ToolCall, ToolOutput } from '@harness-kernel/kernel'
import { permissionDeniedText, preToolUseBlockText } from '../io/index.js'
import { mergePermissionRequest, mergePostToolUse, mergePreToolUse } from '../io/merge.js'
import { commandOf, presentTool, toolResponseFor } from '../io/tool-presentation.js'
import { codexContexts } from './messages.js'
import { PLUGIN_NAME } from './run-event.js'
import { runFor, type TapContext } from './tap-context.js'

/** PreToolUse, PermissionRequest and PostToolUse on the kernel's tool points. */
export function tapToolEvents(kernel: KernelApi, ctx: TapContext): void {
  const present = (call: ToolCall) => presentTool(call, ctx.tools.get(call.name)?.aliases)

  kernel.hooks.toolPreExecute.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, signal }) => {
    const tool = present(call)
    const runs = await runFor(ctx, session, {
      event: 'PreToolUse',
      turnId: turn.id,
      toolUseId: call.id,
      subjects: tool.matchNames,
      fields: { toolName: tool.toolName, toolInput: tool.toolInput, toolUseId: call.id },
      signal,
    })
    const merged = mergePreToolUse(runs)
    const context = [...(decision.context ?? []), ...codexContexts(merged.contexts, { toolCallId: call.id })]
    if (merged.blocked) {
      const reason = preToolUseBlockText(merged.reason ?? '', commandOf(tool.toolInput) || JSON.stringify(tool.toolInput), {
        redactCommand: ctx.fixes.redactBlockedCommand === true,
      })
      return { kind: 'deny', reason, context }
    }
    if (merged.updatedInput !== undefined && decision.kind === 'allow') {
      return { ...decision, input: inputFromCodex(tool.toolName, call.input, merged.updatedInput), context }
    }
    return context.length === 0 ? decision : { ...decision, context }
  })

  kernel.hooks.toolPermissionRequest.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, reason, signal }) => {
    const tool = present(call)
    const toolInput =
      tool.toolName === 'Bash' && reason !== undefined ? { ...(tool.toolInput as object), description: reason } : tool.toolInput
    const merged = mergePermissionRequest(
      await runFor(ctx, session, {
        event: 'PermissionRequest',
        turnId: turn.id,
        subjects: tool.matchNames,
        fields: { toolName: tool.toolName, toolInput },
        signal,
      }),
    )
    // Codex names its own tool (exec_command); a kernel tool uses its own model-facing name.
    if (merged.verdict?.behavior === 'deny') return { kind: 'deny', reason: permissionDeniedText(merged.verdict.message, call.name) }
    if (merged.verdict?.behavior === 'allow') return { kind: 'allow' }
    return decision
  })

  kernel.hooks.toolPostExecute.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, result, signal }) => {
    const tool = present(call)
    // An MCP tool whose result has isError fires no PostToolUse (Codex 0.169.0, conformance scenario mcp-tools) [obs].
    if (result.isError && isMcpResult(tool.toolName, result)) return decision
    // Nor does a call its tool answered with an error instead of a result (`details.callError`; Codex's multi-agent
    // tools on an unknown agent, 0.169.0, 2 runs) [obs].
    if (result.isError && result.details?.callError === true) return decision
    const merged = mergePostToolUse(
      await runFor(ctx, session, {
        event: 'PostToolUse',
        turnId: turn.id,
        toolUseId: call.id,
        subjects: tool.matchNames,
        fields: {
          toolName: tool.toolName,
          toolInput: tool.toolInput,
          toolResponse: toolResponse(tool.toolName, result),
          toolUseId: call.id,
        },
        signal,
      }),
    )
    const context = [...(decision.context ?? []), ...codexContexts(merged.contexts, { toolCallId: call.id })]
    if (merged.stopped) session.notice('warning', `PostToolUse hook stopped: ${merged.stopReason ?? 'no reason given'}`, PLUGIN_NAME)
    if (merged.replacement !== undefined) return { kind: 'block', feedback: merged.replacement, context }
    return context.length === 0 ? decision : { ...decision, context }
  })
}

/**
 * A shell's `tool_response` is its output text alone, without exit code or notes. Codex merges the two streams as
 * they arrive (racy: stdout first in most runs), so the kernel sends stdout then stderr. Other tools: the output text.
 */
function toolResponse(toolName: string, result: ToolOutput): unknown {
  const details = result.details
  if (toolName === 'Bash' && typeof details?.stdout === 'string' && typeof details.stderr === 'string')
    return details.stdout + details.stderr
  // An MCP tool: the CallToolResult (`@harness-kernel/mcp` keeps it in `details`) as `{content, structuredContent?}`
  // (Codex 0.169.0, conformance scenario mcp-tools) [obs].
  if (isMcpResult(toolName, result)) {
    const { content, structuredContent } = details as { content: unknown[]; structuredContent?: unknown }
    return { content, ...(structuredContent === undefined ? {} : { structuredContent }) }
  }
  return toolResponseFor(toolName, result)
}

/** A result an MCP server gave (`@harness-kernel/mcp`'s tools keep its content blocks in `details.content`). */
function isMcpResult(toolName: string, result: ToolOutput): boolean {
  return toolName.startsWith('mcp__') && Array.isArray(result.details?.content)
}

/** `updatedInput` is in Codex's shape; a shell's `{command}` maps back onto the kernel tool's input. */
function inputFromCodex(toolName: string, original: unknown, updated: unknown): unknown {
  if (toolName !== 'Bash' || typeof updated !== 'object' || updated === null) return updated
  return { ...(typeof original === 'object' && original !== null ? original : {}), ...updated }
}
