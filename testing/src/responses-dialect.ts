import { type ApiDialect, errorHeaders, holdContent, inputJson, type ReplyContext, type ResolvedMessage } from './dialect.js'
import { openaiErrorBody } from './openai-error.js'
import type { ReplyStream } from './reply-stream.js'

/** The reply's token counts in the Responses API's fields (`input_tokens` includes the cached ones); default 10 in, 5 out. */
function usageOf(reply: ResolvedMessage) {
  const usage = reply.usage ?? { inputTokens: 10, outputTokens: 5 }
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  }
}

const modelOf = (context: ReplyContext) => context.body.model ?? 'gpt-fake'

const responseId = (context: ReplyContext) => `resp_${context.runId}_${context.n}`

/** The output items of a reply, in order: reasoning, the message, the calls. */
function outputItems(reply: ResolvedMessage, context: ReplyContext): Record<string, unknown>[] {
  return [
    ...(reply.reasoning === undefined
      ? []
      : [{ type: 'reasoning', id: `rs_${context.runId}_${context.n}`, summary: [{ type: 'summary_text', text: reply.reasoning }] }]),
    ...(reply.deltas === undefined
      ? []
      : [
          {
            type: 'message',
            role: 'assistant',
            id: `msg_${context.runId}_${context.n}`,
            content: [{ type: 'output_text', text: reply.deltas.join(''), annotations: [] }],
          },
        ]),
    ...reply.toolCalls.map((call) => ({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: inputJson(call.input),
    })),
  ]
}

async function writeStream(reply: ResolvedMessage, out: ReplyStream, context: ReplyContext): Promise<void> {
  const send = (event: Record<string, unknown>) => out.event(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  out.head(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  await holdContent(reply, out)
  if (out.gone) return
  const id = responseId(context)
  send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', model: modelOf(context), output: [] } })
  const output = outputItems(reply, context)
  for (const [index, item] of output.entries()) {
    if (item.type === 'reasoning') {
      send({ type: 'response.output_item.added', output_index: index, item: { ...item, summary: [] } })
      send({
        type: 'response.reasoning_summary_text.delta',
        item_id: item.id,
        output_index: index,
        summary_index: 0,
        delta: reply.reasoning,
      })
    } else if (item.type === 'message') {
      const message = { type: 'message', role: 'assistant', id: item.id, content: [] as unknown[] }
      send({ type: 'response.output_item.added', output_index: index, item: message })
      send({
        type: 'response.content_part.added',
        output_index: index,
        item_id: item.id,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      })
      for (const delta of reply.deltas ?? []) {
        if (out.gone) return
        send({ type: 'response.output_text.delta', output_index: index, item_id: item.id, content_index: 0, delta })
        await out.pause(reply.chunkDelayMs)
      }
    } else send({ type: 'response.output_item.added', output_index: index, item })
    send({ type: 'response.output_item.done', output_index: index, item })
  }
  if (out.gone) return
  send({
    type: 'response.completed',
    response: { id, object: 'response', status: 'completed', model: modelOf(context), output, usage: usageOf(reply) },
  })
  out.end()
}

/** The Responses API: `POST …/responses`, streamed as OpenAI's server-sent events or answered with one response. */
export const responsesDialect: ApiDialect = {
  api: 'responses',
  callIdPrefix: 'call',
  matches: (method, path) => method === 'POST' && path.endsWith('/responses'),
  async writeMessage(reply, out, context) {
    if (context.stream) return writeStream(reply, out, context)
    await holdContent(reply, out)
    out.head(200, { 'content-type': 'application/json' })
    out.end(
      JSON.stringify({
        id: responseId(context),
        object: 'response',
        status: 'completed',
        model: modelOf(context),
        output: outputItems(reply, context),
        usage: usageOf(reply),
      }),
    )
  },
  errorAnswer: (reply, context) => ({
    headers: { 'x-request-id': `req_fake_${context.n}`, ...errorHeaders(reply) },
    body: openaiErrorBody(reply),
  }),
}
