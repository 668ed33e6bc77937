import { type ContentBlock, isMessageReply, type MessageParam, type RecordedRequest, type Reply, toolsOf } from '@harness-kernel/testing'

/**
 * The example's model, as the fake Messages API of `@harness-kernel/testing` answers it:
 *
 * - a request that offers no tools (one of Claude Code's side requests) gets a short text;
 * - the first request of a turn (its history ends with the user's prompt, not with tool results) gets one `tool_use` of
 *   `mcp__host__shell`, the kernel's shell tool as Claude Code sees it, running the first `backquoted` command of the
 *   prompt;
 * - every later request of the turn gets a final text that quotes the last user text it saw.
 */
export function exampleModel(request: RecordedRequest): Reply {
  const messages = messagesOf(request)
  const main = toolsOf(request).length > 0
  const firstOfTurn = !trailingUserBlocks(messages).some((block) => block.type === 'tool_result')
  const command = /`([^`]+)`/.exec(lastUserText(messages))?.[1]
  if (main && firstOfTurn && command !== undefined)
    return { toolCalls: [{ id: `toolu_fake_${request.n}`, name: 'mcp__host__shell', input: { command } }] }
  return { text: main ? `Done. The last thing you told me was: "${lastUserText(messages)}"` : `side reply #${request.n}` }
}

export type Block = ContentBlock

/** One model request and what the model answered, as the example tells it. */
export interface ModelRequest {
  /** The request's number on the fake server. */
  n: number
  /** The request offered tools (Claude Code's main loop), as opposed to a side request. */
  main: boolean
  messages: MessageParam[]
  reply: { kind: 'tool_use'; id: string; name: string; input: unknown } | { kind: 'text'; text: string }
}

export function modelRequest(request: RecordedRequest): ModelRequest {
  const [call] = request.toolCalls
  const reply = request.reply
  const text = reply !== undefined && isMessageReply(reply) ? reply.text : undefined
  return {
    n: request.n,
    main: toolsOf(request).length > 0,
    messages: messagesOf(request),
    reply: call ? { kind: 'tool_use', ...call } : { kind: 'text', text: typeof text === 'string' ? text : (text ?? []).join('') },
  }
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g

const messagesOf = (request: RecordedRequest): MessageParam[] => request.body.messages ?? []
const blocksOf = (message: MessageParam | undefined): Block[] =>
  message === undefined ? [] : typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content

/** The text of a user text block as a person wrote it: Claude Code's `<system-reminder>`s left out. */
export const userText = (block: Block): string => (block.text ?? '').replace(REMINDER, '').trim()

/** The last non-empty user text in the history. */
export function lastUserText(messages: readonly MessageParam[]): string {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'user') continue
    const texts = blocksOf(message)
      .filter((block) => block.type === 'text')
      .map(userText)
      .filter(Boolean)
    if (texts.length > 0) return texts.at(-1)!
  }
  return ''
}

/** The blocks of the user messages after the last assistant message: what the request adds to the history. */
export function trailingUserBlocks(messages: readonly MessageParam[]): Block[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant')
  return messages.slice(lastAssistant + 1).flatMap((message) => (message.role === 'user' ? blocksOf(message) : []))
}
