import { type ApiDialect, errorHeaders, holdContent, inputJson, type ReplyContext, type ResolvedMessage } from './dialect.js'
import type { ErrorReply } from './reply.js'
import type { ReplyStream } from './reply-stream.js'

/** Anthropic's error types by status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

const signatureOf = (context: ReplyContext) => `fake-signature-${context.runId}-${context.n}`

/** The usage of `message_start` (output so far: 1) or of a whole message; a reply's own counts, else 100 + n in, 12 out. */
function usage(reply: ResolvedMessage, context: ReplyContext, final: boolean) {
  const given = reply.usage
  const cacheRead = given?.cacheReadInputTokens ?? 0
  const cacheWrite = given?.cacheCreationInputTokens ?? 0
  return {
    input_tokens: given === undefined ? 100 + context.n : given.inputTokens - cacheRead - cacheWrite,
    output_tokens: final ? outputTokens(reply) : 1,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  }
}

const outputTokens = (reply: ResolvedMessage) => reply.usage?.outputTokens ?? 12

function contentBlocks(reply: ResolvedMessage, context: ReplyContext): Record<string, unknown>[] {
  return [
    ...(reply.reasoning === undefined ? [] : [{ type: 'thinking', thinking: reply.reasoning, signature: signatureOf(context) }]),
    ...(reply.deltas === undefined ? [] : [{ type: 'text', text: reply.deltas.join('') }]),
    ...reply.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: inputValue(call.input) })),
  ]
}

/** A tool call's input as a JSON value: a string input is parsed when it is JSON, kept as it is when not. */
function inputValue(input: unknown): unknown {
  if (typeof input !== 'string') return input
  try {
    return JSON.parse(input)
  } catch {
    return input
  }
}

const stopReason = (reply: ResolvedMessage) => (reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn')

async function writeStream(reply: ResolvedMessage, out: ReplyStream, context: ReplyContext): Promise<void> {
  const event = (type: string, data: Record<string, unknown>) => out.event(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  out.head(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${context.n}` })
  event('message_start', {
    message: {
      id: `msg_fake_${context.n}`,
      type: 'message',
      role: 'assistant',
      model: context.body.model ?? 'claude-fake',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage(reply, context, false),
    },
  })
  event('ping', {})
  await holdContent(reply, out)
  if (out.gone) return
  let index = 0
  if (reply.reasoning !== undefined) {
    event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
    event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: reply.reasoning } })
    event('content_block_delta', { index, delta: { type: 'signature_delta', signature: signatureOf(context) } })
    event('content_block_stop', { index })
    index++
  }
  if (reply.deltas !== undefined) {
    event('content_block_start', { index, content_block: { type: 'text', text: '' } })
    for (const text of reply.deltas) {
      if (out.gone) return
      event('content_block_delta', { index, delta: { type: 'text_delta', text } })
      await out.pause(reply.chunkDelayMs)
    }
    event('content_block_stop', { index })
    index++
  }
  for (const call of reply.toolCalls) {
    event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } })
    event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: inputJson(call.input) } })
    event('content_block_stop', { index })
    index++
  }
  event('message_delta', { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: outputTokens(reply) } })
  event('message_stop', {})
  out.end()
}

/** The Messages API: `POST /v1/messages`, streamed as Anthropic's server-sent events or answered with one message. */
export const messagesDialect: ApiDialect = {
  api: 'messages',
  callIdPrefix: 'toolu',
  matches: (method, path) => method === 'POST' && path.endsWith('/messages'),
  async writeMessage(reply, out, context) {
    if (context.stream) return writeStream(reply, out, context)
    await holdContent(reply, out)
    out.head(200, { 'content-type': 'application/json', 'request-id': `req_fake_${context.n}` })
    out.end(
      JSON.stringify({
        id: `msg_fake_${context.n}`,
        type: 'message',
        role: 'assistant',
        model: context.body.model ?? 'claude-fake',
        content: contentBlocks(reply, context),
        stop_reason: stopReason(reply),
        stop_sequence: null,
        usage: usage(reply, context, true),
      }),
    )
  },
  errorAnswer(reply: ErrorReply, context) {
    const requestId = `req_fake_${context.n}`
    return {
      headers: { 'request-id': requestId, ...errorHeaders(reply) },
      body: {
        type: 'error',
        error: {
          type: reply.type ?? ERROR_TYPES[reply.status] ?? (reply.status >= 500 ? 'api_error' : 'invalid_request_error'),
          message: reply.message,
        },
        request_id: requestId,
      },
    }
  },
}
