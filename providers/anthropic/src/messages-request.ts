import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages'
import { type ContentBlock, type Message, ModelError, type ModelRequest, type ToolSpec } from '@harness-kernel/kernel'
import type { ResolvedAnthropicOptions } from './anthropic-options.js'
import { systemReminder } from './system-reminder.js'
import type { ThinkingReplay } from './thinking-replay.js'

/** The Messages API request body for one kernel request (always streamed). */
export function buildMessagesRequest(
  request: ModelRequest,
  options: ResolvedAnthropicOptions,
  replay?: ThinkingReplay,
): MessageCreateParamsStreaming {
  const body: MessageCreateParamsStreaming = {
    model: options.model,
    max_tokens: options.maxTokens,
    messages: toMessageParams(request.messages, options.developerMessages, replay),
    stream: true,
  }
  if (request.system) body.system = request.system
  // No tool_choice: the API's default, `auto`, with parallel tool calls allowed.
  if (request.tools.length > 0) body.tools = request.tools.map(toTool)
  const thinking = options.thinking
  if (thinking !== undefined) {
    body.thinking = typeof thinking === 'object' ? { type: 'enabled', budget_tokens: thinking.budgetTokens } : { type: thinking }
  }
  if (options.promptCaching) {
    const { ttl } = options.promptCaching
    body.cache_control = ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl }
  }
  return body
}

type Role = 'user' | 'assistant' | 'system'
interface Turn {
  role: Role
  content: ContentBlockParam[]
}

/**
 * The kernel's messages as Messages API turns:
 * - `user` and `tool` messages are user turns (`tool_result` blocks for tool results); `assistant` messages are assistant
 *   turns (`text` and `tool_use` blocks).
 * - `developer` messages become a user-side text block `<system-reminder>\n…\n</system-reminder>` (or, with
 *   `developerMessages: 'system'`, a `system` turn in place).
 * - Consecutive turns of the same role merge into one (the API wants user and assistant to alternate); in a user turn the
 *   `tool_result` blocks come first, then the rest in order (the API wants results before any text).
 * - Empty text blocks and empty messages are left out (the API rejects them).
 */
export function toMessageParams(
  messages: readonly Message[],
  developerMessages: 'reminder' | 'system',
  replay?: ThinkingReplay,
): MessageParam[] {
  const turns: Turn[] = []
  for (const message of messages) {
    const turn = toTurn(message, developerMessages, replay)
    if (turn.content.length === 0) continue
    const last = turns.at(-1)
    if (last !== undefined && last.role === turn.role && turn.role !== 'system') last.content.push(...turn.content)
    else turns.push(turn)
  }
  return turns.map((turn): MessageParam => {
    if (turn.role === 'user') return { role: 'user', content: toolResultsFirst(turn.content) }
    if (turn.role === 'system') return { role: 'system', content: turn.content as TextBlockParam[] }
    return { role: 'assistant', content: turn.content }
  })
}

function toTurn(message: Message, developerMessages: 'reminder' | 'system', replay: ThinkingReplay | undefined): Turn {
  switch (message.role) {
    case 'developer': {
      const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
      if (text === '') return { role: 'user', content: [] }
      return developerMessages === 'system'
        ? { role: 'system', content: [{ type: 'text', text }] }
        : { role: 'user', content: [{ type: 'text', text: systemReminder(text) }] }
    }
    case 'assistant': {
      const raw = replay?.recall(message.content)
      return { role: 'assistant', content: raw ? [...raw] : message.content.flatMap((block) => assistantBlock(block)) }
    }
    default:
      return { role: 'user', content: message.content.flatMap((block) => userBlock(block, message.role)) }
  }
}

function assistantBlock(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ type: 'text', text: block.text }]
    case 'tool_call':
      return [{ type: 'tool_use', id: toolUseId(block.id), name: block.name, input: toolInput(block.input) }]
    default:
      throw unsendable(`an assistant message holds a tool_result (for call ${block.callId}); tool results belong to tool messages`)
  }
}

function userBlock(block: ContentBlock, role: string): ContentBlockParam[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ type: 'text', text: block.text }]
    case 'tool_result': {
      const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toolUseId(block.callId) }
      if (block.output !== '') result.content = block.output
      if (block.isError) result.is_error = true
      return [result]
    }
    default:
      throw unsendable(`a ${role} message holds a tool_call (${block.name}); tool calls belong to assistant messages`)
  }
}

function toolResultsFirst(content: ContentBlockParam[]): ContentBlockParam[] {
  return [...content.filter((block) => block.type === 'tool_result'), ...content.filter((block) => block.type !== 'tool_result')]
}

function toTool(spec: ToolSpec): Tool {
  const tool: Tool = { name: spec.name, input_schema: spec.inputSchema as Tool.InputSchema }
  if (spec.description) tool.description = spec.description
  return tool
}

/** The API accepts tool_use ids of letters, digits, `_` and `-`; ids from other providers are mapped the same way both sides. */
function toolUseId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_')
}

/** A tool_use input must be an object; anything else (from another provider or a plugin) is sent as `{}`. */
function toolInput(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {}
}

function unsendable(reason: string): ModelError {
  return new ModelError(`cannot send this conversation to the Anthropic API: ${reason}`, { retryable: false })
}
