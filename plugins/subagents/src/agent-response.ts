import { createHash } from 'node:crypto'
import type { Message, ModelUsage, ToolRegistry } from '@harness-kernel/kernel'
import type { ChildRun } from './child-run.js'

/** What `Agent`'s PostToolUse sees for a finished foreground subagent, and the notes before its report. */
export interface AgentResponse {
  notes: string[]
  toolResponse: Record<string, unknown>
}

const SEARCH_TOOLS = new Set(['Grep', 'Glob'])
const EDIT_TOOLS = new Set(['Edit', 'Write', 'NotebookEdit'])

/**
 * Claude Code 2.1.336's object for a completed foreground agent (conformance `a01-subagent`, `a02-subagent-stop-block`
 * and a subagent without tool calls, one run each), key for key: the tools it used (by Claude Code's names, in first
 * use order), its report, model, duration, tokens, usage and tool statistics, and the note naming the tools as
 * `toolsUsedLine`. Since 2.1.335 the note is no longer an element of `content` (`harnessNoteCount` 0, `adviceNotes`
 * empty), though the model still gets it before the report; a subagent that used no tool has no `toolsUsed`,
 * `toolStats` or `toolsUsedLine`. `canContinueAgent` is false: the kernel has no SendMessage, so a finished subagent
 * cannot be continued. The note section's hash is this kernel's own.
 */
export function agentResponse(
  child: ChildRun,
  input: { prompt: string },
  context: { tools: ToolRegistry; model: string | undefined },
): AgentResponse {
  const calls = child.session.messages.flatMap((message) =>
    message.content.flatMap((block) =>
      block.type === 'tool_call' ? [{ name: claudeName(block.name, context.tools), input: block.input }] : [],
    ),
  )
  const toolsUsed = [...new Set(calls.map((call) => call.name))]
  const usedTools = toolsUsed.length > 0
  const toolsUsedLine = `<tools-used-before-summary>${toolsUsed.join(', ')}</tools-used-before-summary>`
  const notes = usedTools ? [`${toolsUsedLine}\n`] : []
  const usage = lastUsage(child.session.messages)
  const report = child.lastMessage ?? ''
  return {
    notes,
    toolResponse: {
      status: 'completed',
      prompt: input.prompt,
      agentId: child.agent.id,
      agentType: child.agent.type,
      ...(usedTools ? { toolsUsed } : {}),
      harnessNoteCount: 0,
      harnessTailCount: 0,
      adviceNotes: [],
      harnessSectionHash: createHash('sha256').update(notes.join('')).digest('hex').slice(0, 16),
      content: [{ type: 'text', text: report }],
      resolvedModel: context.model ?? null,
      totalDurationMs: Date.now() - child.startedAt,
      totalTokens: (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      totalToolUseCount: calls.length,
      usage: {
        input_tokens: usage?.inputTokens ?? 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: usage?.outputTokens ?? 0,
      },
      ...(usedTools ? { toolStats: toolStats(calls), toolsUsedLine } : {}),
      canContinueAgent: false,
    },
  }
}

function claudeName(name: string, tools: ToolRegistry): string {
  return tools.get(name)?.aliases?.claudeCode ?? name
}

/** The usage the subagent's last response reported (its final request's, as Claude Code counts `totalTokens`). */
function lastUsage(messages: readonly Message[]): ModelUsage | undefined {
  return messages.findLast((message) => message.role === 'assistant' && message.meta?.usage !== undefined)?.meta?.usage as
    | ModelUsage
    | undefined
}

/** Claude Code's `toolStats`; lines added and removed are counted from the Edit and Write inputs. */
function toolStats(calls: { name: string; input: unknown }[]): Record<string, number> {
  const stats = { readCount: 0, searchCount: 0, bashCount: 0, editFileCount: 0, linesAdded: 0, linesRemoved: 0, otherToolCount: 0 }
  const lines = (value: unknown) => (typeof value === 'string' && value !== '' ? value.split('\n').length : 0)
  for (const { name, input } of calls) {
    const fields = (input ?? {}) as Record<string, unknown>
    if (name === 'Read') stats.readCount++
    else if (SEARCH_TOOLS.has(name)) stats.searchCount++
    else if (name === 'Bash') stats.bashCount++
    else if (EDIT_TOOLS.has(name)) {
      stats.editFileCount++
      stats.linesAdded += lines(fields.new_string ?? fields.content)
      stats.linesRemoved += lines(fields.old_string)
    } else stats.otherToolCount++
  }
  return stats
}
