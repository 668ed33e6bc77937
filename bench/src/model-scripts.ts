import {
  type InputItem,
  isMessageReply,
  itemText,
  type MessageParam,
  type RecordedRequest,
  type Reply,
  toolsOf,
} from '@harness-kernel/testing'

/**
 * How the benchmarks' fake models answer (`@harness-kernel/testing`'s servers, scripted by these functions). A turn's
 * prompt names what the model does, counted from that prompt on, so a session's earlier turns do not count.
 */

const MESSAGES_CALLS = /\[\[calls:(\d+)\]\]/
const RESPONSES_CALLS = /\[\[calls:(\d+):([A-Za-z0-9_.-]+):([\s\S]*?)\]\](?!\])/
const RESPONSES_STREAM = /\[\[stream:(\d+):(\d+)\]\]/

/** For the fake Responses API: K function calls of NAME with the arguments, one per response, then a text. */
export const callsDirective = (calls: number, name: string, args: Record<string, unknown>): string =>
  `[[calls:${calls}:${name}:${JSON.stringify(args)}]]`
/** For the fake Responses API: the final text in N deltas, MS apart, while no user message follows the prompt. */
export const streamDirective = (deltas: number, ms: number): string => `[[stream:${deltas}:${ms}]]`

const blocksOf = (message: MessageParam) =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content

/**
 * The fake Messages API of the Claude Code benchmarks: `[[calls:K]]` in a turn's prompt asks for K calls of `true`, one
 * per reply, then a text. The tool is a kernel tool `noop` when the request offers it (`mcp__host__noop`), else the
 * kernel's shell (`mcp__host__shell`), else Claude Code's own `Bash`. A request without tools gets a text.
 */
export function claudeBenchScript(request: RecordedRequest): Reply {
  const text = { text: `done (request #${request.n})` }
  const tools = toolsOf(request)
  if (tools.length === 0) return text
  const messages: MessageParam[] = request.body.messages ?? []
  const prompt = messages.findLastIndex(
    (message) => message.role === 'user' && !blocksOf(message).some((block) => block.type === 'tool_result'),
  )
  const promptText =
    prompt < 0
      ? ''
      : blocksOf(messages[prompt]!)
          .map((block) => block.text ?? '')
          .join('\n')
  const wanted = Number(MESSAGES_CALLS.exec(promptText)?.[1] ?? 0)
  const made = messages
    .slice(prompt + 1)
    .filter((message) => message.role === 'assistant' && blocksOf(message).some((block) => block.type === 'tool_use')).length
  if (made >= wanted) return text
  const name = ['mcp__host__noop', 'mcp__host__shell'].find((tool) => tools.includes(tool)) ?? 'Bash'
  return { toolCalls: [{ id: `toolu_bench_${request.n}`, name, input: { command: 'true' } }] }
}

/**
 * The fake Responses API of the Codex benchmarks, scripted by `callsDirective` and `streamDirective`: the latest user
 * message holding one is the turn's prompt (a steer after it holds none); calls are the `function_call` items after it.
 */
export function codexBenchScript(request: RecordedRequest): Reply {
  const input: InputItem[] = request.body.input ?? []
  const text = `FINAL reply to request #${request.n}`
  const prompt = input.findLastIndex(
    (item) => item.role === 'user' && (RESPONSES_CALLS.test(itemText(item)) || RESPONSES_STREAM.test(itemText(item))),
  )
  if (prompt < 0) return { text }
  const promptText = itemText(input[prompt]!)
  const after = input.slice(prompt + 1)
  const calls = RESPONSES_CALLS.exec(promptText)
  if (calls && after.filter((item) => item.type === 'function_call').length < Number(calls[1]))
    return { toolCalls: [{ name: calls[2]!, input: calls[3]! }] }
  const stream = RESPONSES_STREAM.exec(promptText)
  if (!stream || after.some((item) => item.role === 'user')) return { text }
  const deltas = Number(stream[1])
  const ms = Number(stream[2])
  return {
    text: Array.from({ length: deltas }, (_, i) => (deltas > 1 ? `${text} [${i + 1}/${deltas}] ` : text)),
    ...(ms > 0 ? { chunkDelayMs: ms } : {}),
  }
}

/** The reply streamed its text in more than one delta. */
export function streamedText(request: RecordedRequest): boolean {
  const reply = request.reply
  return reply !== undefined && isMessageReply(reply) && Array.isArray(reply.text) && reply.text.length > 1
}
