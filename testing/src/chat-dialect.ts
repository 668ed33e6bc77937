import { type ApiDialect, errorHeaders, holdContent, inputJson, type ReplyContext, type ResolvedMessage } from './dialect.js'
import { openaiErrorBody } from './openai-error.js'
import type { ReplyStream } from './reply-stream.js'

const CREATED = 1_760_000_000
/** The reply's token counts in Chat Completions' fields (`prompt_tokens` includes the cached ones); default 10 in, 5 out. */
function usageOf(reply: ResolvedMessage) {
  const usage = reply.usage
  if (usage === undefined) return { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  }
}

const completionId = (context: ReplyContext) => `chatcmpl-${context.runId}-${context.n}`
const finishReason = (reply: ResolvedMessage) => (reply.toolCalls.length > 0 ? 'tool_calls' : 'stop')
const wantsUsage = (context: ReplyContext) =>
  (context.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true

async function writeStream(reply: ResolvedMessage, out: ReplyStream, context: ReplyContext): Promise<void> {
  const head = { id: completionId(context), object: 'chat.completion.chunk', created: CREATED, model: context.body.model ?? 'gpt-fake' }
  const data = (value: unknown) => out.event(`data: ${JSON.stringify(value)}\n\n`)
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
  out.head(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  await holdContent(reply, out)
  if (out.gone) return
  chunk({ role: 'assistant', content: reply.deltas === undefined ? null : '' })
  if (reply.reasoning !== undefined) chunk({ reasoning_content: reply.reasoning })
  for (const content of reply.deltas ?? []) {
    if (out.gone) return
    chunk({ content })
    await out.pause(reply.chunkDelayMs)
  }
  for (const [index, call] of reply.toolCalls.entries()) {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })
    chunk({ tool_calls: [{ index, function: { arguments: inputJson(call.input) } }] })
  }
  chunk({}, finishReason(reply))
  if (wantsUsage(context)) data({ ...head, choices: [], usage: usageOf(reply) })
  out.event('data: [DONE]\n\n')
  out.end()
}

/** Chat Completions: `POST …/chat/completions`, streamed as `data:` chunks ending in `[DONE]`, or one completion. */
export const chatDialect: ApiDialect = {
  api: 'chat-completions',
  callIdPrefix: 'call',
  matches: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),
  async writeMessage(reply, out, context) {
    if (context.stream) return writeStream(reply, out, context)
    await holdContent(reply, out)
    const calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: inputJson(call.input) },
    }))
    out.head(200, { 'content-type': 'application/json' })
    out.end(
      JSON.stringify({
        id: completionId(context),
        object: 'chat.completion',
        created: CREATED,
        model: context.body.model ?? 'gpt-fake',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.deltas === undefined ? null : reply.deltas.join(''),
              ...(reply.reasoning === undefined ? {} : { reasoning_content: reply.reasoning }),
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
              refusal: null,
            },
            logprobs: null,
            finish_reason: finishReason(reply),
          },
        ],
        usage: usageOf(reply),
      }),
    )
  },
  errorAnswer: (reply, context) => ({
    headers: { 'x-request-id': `req_fake_${context.n}`, ...errorHeaders(reply) },
    body: openaiErrorBody(reply),
  }),
}
