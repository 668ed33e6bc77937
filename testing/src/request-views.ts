import type { ChatMessage, ContentBlock, InputItem, MessageParam } from './api-types.js'
import type { RecordedRequest } from './recorded-request.js'

/** What the views read of a request: a recorded one, or any object with a body and the API it spoke. */
export type RequestLike = Pick<RecordedRequest, 'api' | 'body'>

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g
/** Codex's own context, sent as user input: its environment, a project's AGENTS.md. */
const CODEX_CONTEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/

const bodyOf = (request: RequestLike): Record<string, unknown> =>
  typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {}
const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : [])

/** The messages of a Messages or Chat Completions request. */
const messagesOf = (request: RequestLike): MessageParam[] => listOf<MessageParam>(bodyOf(request).messages)
const inputOf = (request: RequestLike): InputItem[] => {
  const input = bodyOf(request).input
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : listOf<InputItem>(input)
}

/** The text parts of a message's or an input item's content, in order. */
function partTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content]
  return listOf<{ type?: string; text?: string }>(content)
    .filter((part) => part?.type === 'text' || part?.type === 'input_text' || part?.type === 'output_text')
    .map((part) => part.text ?? '')
}

/** The text of a Responses input item, its parts joined. */
export function itemText(item: InputItem): string {
  return partTexts(item.content).join('')
}

/**
 * The text of the user messages of a request, a part each, in order: Messages' text blocks, Responses' user items,
 * Chat Completions' user messages. `<system-reminder>` blocks are removed unless `keepReminders`; blank texts are left out.
 */
export function userTexts(request: RequestLike, options: { keepReminders?: boolean } = {}): string[] {
  const messages =
    request.api === 'responses'
      ? inputOf(request).filter((item) => item.role === 'user')
      : messagesOf(request).filter((m) => m.role === 'user')
  return messages
    .flatMap((message) => partTexts(message.content))
    .map((text) => (options.keepReminders ? text : text.replace(REMINDER, '')))
    .filter((text) => text.trim() !== '')
}

/** The names of the tools a request offers, in order (Responses' tools without a name by their type). */
export function toolsOf(request: RequestLike): string[] {
  return listOf<{ name?: string; type?: string; function?: { name?: string } }>(bodyOf(request).tools).map(
    (tool) => tool.name ?? tool.function?.name ?? tool.type ?? '?',
  )
}

/** The requests that offer tools: a program's main loop, not its side requests (titles, summaries). */
export function mainRequests<Request extends RequestLike>(server: { requests: Request[] }): Request[] {
  return server.requests.filter((request) => toolsOf(request).length > 0)
}

/** The last user message of a request (a Responses request: its last user item). */
export function lastUserMessage(request: RequestLike): MessageParam | undefined {
  if (request.api === 'responses') return inputOf(request).findLast((item) => item.role === 'user') as MessageParam | undefined
  return messagesOf(request).findLast((message) => message.role === 'user')
}

/** How many of the model's earlier replies in the request's history made tool calls (several calls in one reply count once). */
export function toolCallReplies(request: RequestLike): number {
  if (request.api === 'responses') {
    let replies = 0
    let previous: string | undefined
    for (const item of inputOf(request)) {
      if (item.type === 'function_call' && previous !== 'function_call') replies++
      previous = item.type
    }
    return replies
  }
  if (request.api === 'chat-completions')
    return listOf<ChatMessage>(bodyOf(request).messages).filter((m) => m.role === 'assistant' && (m.tool_calls ?? []).length > 0).length
  return messagesOf(request).filter(
    (message) =>
      message.role === 'assistant' && Array.isArray(message.content) && message.content.some((block) => block?.type === 'tool_use'),
  ).length
}

/** A Responses call output: a string as it is, anything else as JSON. */
const callOutputText = (output: unknown): string => (typeof output === 'string' ? output : JSON.stringify(output))
/** A Messages tool result's (or a Chat tool message's) content: a string, or its text blocks joined. */
const resultText = (content: unknown): string => (typeof content === 'string' ? content : partTexts(content).join(''))

/**
 * What a request adds since the model last spoke, an entry a part: `output:<a tool result's text>`, `user:<text>`,
 * `call:<name>` (Responses: a call without a model message after it). The programs' own context is left out: system
 * and developer messages, Codex's environment and AGENTS.md texts. `<system-reminder>`s are kept (a program may put
 * a user's words in one).
 */
export function newInput(request: RequestLike): string[] {
  if (request.api === 'responses') {
    const input = inputOf(request)
    const from = input.findLastIndex((item) => item.type === 'function_call' || item.role === 'assistant') + 1
    return input.slice(from).flatMap((item): string[] => {
      if (item.type === 'function_call_output') return [`output:${callOutputText(item.output)}`]
      if (item.type === 'function_call') return [`call:${item.name}`]
      if (item.role !== 'user') return []
      return partTexts(item.content)
        .filter((text) => !CODEX_CONTEXT.test(text))
        .map((text) => `user:${text}`)
    })
  }
  const messages = messagesOf(request)
  const from = messages.findLastIndex((message) => message.role === 'assistant') + 1
  return messages.slice(from).flatMap((message): string[] => {
    if (message.role === 'tool') return [`output:${resultText(message.content)}`]
    if (message.role !== 'user') return []
    const blocks: ContentBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : listOf(message.content)
    return blocks.map((block) =>
      block.type === 'tool_result'
        ? `output:${resultText(block.content ?? '')}`
        : block.type === 'text'
          ? `user:${block.text ?? ''}`
          : block.type,
    )
  })
}
