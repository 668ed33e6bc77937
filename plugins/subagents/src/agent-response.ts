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
 * Claude Code 2.1.332's object for a completed foreground agent (the r23-subagent probe, 2 runs), key for key: the
 * tools it used (by Claude Code's names, in first use order), the harness note naming them before its report, its
 * report, model, duration, tokens, usage and tool statistics. `canContinueAgent` is false: the kernel has no
 * SendMessage, so a finished subagent cannot be continued. The note section's hash is this kernel's own.
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
  const notes = toolsUsed.length === 0 ? [] : [`<tools-used-before-summary>${toolsUsed.join(', ')}</tools-used-before-summary>\n`]
  const usage = lastUsage(child.session.messages)
  const report = child.lastMessage ?? ''
  return {
    notes,
    toolResponse: {
      status: 'completed',
      prompt: input.prompt,
      agentId: child.agent.id,
      agentType: child.agent.type,
      toolsUsed,
      harnessNoteCount: notes.length,
      harnessTailCount: 0,
      harnessSectionHash: createHash('sha256').update(notes.join('')).digest('hex').slice(0, 16),
      content: [...notes, report].map((text) => ({ type: 'text', text })),
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
      toolStats: toolStats(calls),
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
