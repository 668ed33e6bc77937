import { type InputItem, isMessageReply, itemText, type RecordedRequest, type Reply, toolsOf } from '@harness-kernel/testing'

export { type InputItem, itemText }

/**
 * The example's model, as the fake Responses API of `@harness-kernel/testing` answers it:
 *
 * - the first request of a turn (what it adds since the model last spoke holds no `function_call_output`) gets one
 *   `function_call` of `shell`, the kernel's shell tool as Codex offers it (a dynamic tool), running the first
 *   `backquoted` command of the last user text;
 * - every later request of the turn gets a final text that quotes the last user text it saw.
 */
export function exampleModel(request: RecordedRequest): Reply {
  const input = inputOf(request)
  const firstOfTurn = !newInputItems(input).some((item) => item.type === 'function_call_output')
  const command = /`([^`]+)`/.exec(lastUserText(input))?.[1]
  if (firstOfTurn && command !== undefined && toolsOf(request).includes('shell'))
    return { toolCalls: [{ id: `call_fake_${request.n}`, name: 'shell', input: { command } }] }
  return { text: `Done. The last thing you told me was: "${lastUserText(input)}"` }
}

/** One model request and what the model answered, as the example tells it. */
export interface ModelRequest {
  /** The request's number on the fake server. */
  n: number
  /** The names of the function tools offered (other tools by their type). */
  tools: string[]
  input: InputItem[]
  reply: { kind: 'function_call'; callId: string; name: string; arguments: unknown } | { kind: 'text'; text: string }
}

export function modelRequest(request: RecordedRequest): ModelRequest {
  const [call] = request.toolCalls
  const reply = request.reply
  const text = reply !== undefined && isMessageReply(reply) ? reply.text : undefined
  return {
    n: request.n,
    tools: toolsOf(request),
    input: inputOf(request),
    reply: call
      ? { kind: 'function_call', callId: call.id, name: call.name, arguments: call.input }
      : { kind: 'text', text: typeof text === 'string' ? text : (text ?? []).join('') },
  }
}

const inputOf = (request: RecordedRequest): InputItem[] => request.body.input ?? []

/** The context Codex adds as user messages (its environment, a project's AGENTS.md): not what a person wrote. */
const CODEX_CONTEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/

/** The text of a `function_call_output`, whether Codex sent it as a string or as content items. */
export function outputText(item: InputItem): string {
  if (typeof item.output === 'string') return item.output
  if (Array.isArray(item.output)) return (item.output as { text?: string }[]).map((part) => part.text ?? '').join('\n')
  return JSON.stringify(item.output)
}

/** A user message a person wrote (a prompt or a steer), as opposed to Codex's own context. */
export const isUserText = (item: InputItem): boolean =>
  item.type === 'message' && item.role === 'user' && itemText(item).trim() !== '' && !CODEX_CONTEXT.test(itemText(item))

/** The last user text in the input. */
export function lastUserText(input: readonly InputItem[]): string {
  const item = input.findLast(isUserText)
  return item === undefined ? '' : itemText(item).trim()
}

/** The input items after the model last spoke (its last function call or assistant message): what the request adds. */
export function newInputItems(input: readonly InputItem[]): InputItem[] {
  const last = input.findLastIndex((item) => item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant'))
  return input.slice(last + 1)
}
