import { gzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { apiError, type FakeOpenAI, json, startFakeOpenAI } from '../src/index.js'
import { post } from './http-client.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI()
})
afterEach(() => server.reset())
afterAll(async () => {
  await server.close()
})

const responses = () => `${server.baseURL}/responses`
const completions = () => `${server.baseURL}/chat/completions`
const responsesBody = (text: string, options: { tools?: string[]; stream?: boolean; input?: unknown[] } = {}) => ({
  model: 'gpt-test',
  stream: options.stream ?? true,
  input: [...(options.input ?? []), { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }],
  tools: (options.tools ?? ['shell']).map((name) => ({ type: 'function', name, parameters: { type: 'object' } })),
})
const chatBody = (text: string, options: { stream?: boolean; usage?: boolean } = {}) => ({
  model: 'gpt-test',
  stream: options.stream ?? true,
  ...(options.usage ? { stream_options: { include_usage: true } } : {}),
  messages: [{ role: 'user', content: text }],
  tools: [{ type: 'function', function: { name: 'shell', parameters: { type: 'object' } } }],
})

describe('Responses', () => {
  it('a text, streamed as Codex reads it: created, the message item, its deltas, done, completed', async () => {
    server.reply({ text: ['Hel', 'lo'] })
    const answer = await post(responses(), responsesBody('hi'))
    expect(answer.headers.get('content-type')).toBe('text/event-stream')
    const id = (answer.events[0]!.data as { response: { id: string } }).response.id
    expect(id).toMatch(/^resp_\w+_0$/)
    const messageId = id.replace(/^resp_/, 'msg_')
    expect(answer.events.map((event) => event.data)).toEqual([
      { type: 'response.created', response: { id, object: 'response', status: 'in_progress', model: 'gpt-test', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'message', role: 'assistant', id: messageId, content: [] } },
      {
        type: 'response.content_part.added',
        output_index: 0,
        item_id: messageId,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      },
      { type: 'response.output_text.delta', output_index: 0, item_id: messageId, content_index: 0, delta: 'Hel' },
      { type: 'response.output_text.delta', output_index: 0, item_id: messageId, content_index: 0, delta: 'lo' },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'message', role: 'assistant', id: messageId, content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
      },
      {
        type: 'response.completed',
        response: {
          id,
          object: 'response',
          status: 'completed',
          model: 'gpt-test',
          output: [
            { type: 'message', role: 'assistant', id: messageId, content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
          ],
          usage: {
            input_tokens: 10,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 5,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 15,
          },
        },
      },
    ])
    expect(answer.events.map((event) => event.event)).toEqual(answer.events.map((event) => (event.data as { type: string }).type))
  })

  it('reasoning, then two calls in one response; one JSON response when the request does not stream', async () => {
    const calls = [
      { name: 'shell', input: { command: 'ls' } },
      { name: 'shell', input: '{"command":' },
    ]
    server.reply({ reasoning: 'Look first.', toolCalls: calls }, { reasoning: 'Look first.', toolCalls: calls })
    const streamed = await post(responses(), responsesBody('list'))
    const items = streamed.events
      .map((event) => event.data as { type: string; item?: { type: string; call_id?: string; arguments?: string } })
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item)
    const [first, second] = server.requests[0]!.toolCalls
    expect(items).toEqual([
      { type: 'reasoning', id: expect.stringMatching(/^rs_/), summary: [{ type: 'summary_text', text: 'Look first.' }] },
      { type: 'function_call', id: `fc_${first!.id}`, call_id: first!.id, name: 'shell', arguments: '{"command":"ls"}' },
      { type: 'function_call', id: `fc_${second!.id}`, call_id: second!.id, name: 'shell', arguments: '{"command":' },
    ])
    expect([first!.id, second!.id]).toEqual([expect.stringMatching(/^call_\w+_0_0$/), expect.stringMatching(/^call_\w+_0_1$/)])
    const whole = await post(responses(), responsesBody('list', { stream: false }))
    expect(JSON.parse(whole.text)).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-test',
      output: [{ type: 'reasoning' }, { type: 'function_call', name: 'shell' }, { type: 'function_call', name: 'shell' }],
    })
  })

  it('reads a body the client compressed, and counts its size decompressed', async () => {
    const body = JSON.stringify(responsesBody('zipped'))
    const answer = await post(responses(), gzipSync(body), { 'content-encoding': 'gzip' })
    expect(answer.status).toBe(200)
    expect(server.requests[0]!.bytes).toBe(Buffer.byteLength(body))
    expect(server.requests[0]!.body.input[0].content[0].text).toBe('zipped')
  })

  it('a model list and other requests: an empty list, kept apart from the model requests', async () => {
    const list = await fetch(`${server.baseURL}/models`)
    expect(await list.json()).toEqual({ object: 'list', data: [], models: [] })
    expect(server.requests).toEqual([])
    expect(server.otherRequests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/models'])
  })
})

describe('Chat Completions', () => {
  it('a text, streamed as data chunks; the usage chunk when asked for; [DONE]', async () => {
    server.reply({ text: ['Hel', 'lo'] }, { text: 'ok' })
    const answer = await post(completions(), chatBody('hi', { usage: true }))
    const chunks = answer.events.map((event) => event.data)
    expect(chunks.at(-1)).toBe('[DONE]')
    const deltas = chunks.slice(0, -1).map((chunk) => (chunk as { choices: { delta: unknown; finish_reason: unknown }[] }).choices[0])
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'Hel' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'lo' }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' },
      undefined,
    ])
    expect(chunks.at(-2)).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    })
    const withoutUsage = await post(completions(), chatBody('hi'))
    expect(withoutUsage.events.filter((event) => JSON.stringify(event.data).includes('"usage"'))).toEqual([])
  })

  it('a reply’s usage in each API’s own fields: cached input inside the input count, reasoning inside the output', async () => {
    const usage = { inputTokens: 900, cacheReadInputTokens: 600, outputTokens: 40, reasoningTokens: 25 }
    server.reply({ text: 'a', usage }, { text: 'b', usage })
    const chat = await post(completions(), chatBody('hi', { usage: true }))
    expect(chat.events.at(-2)?.data).toMatchObject({
      usage: {
        prompt_tokens: 900,
        completion_tokens: 40,
        total_tokens: 940,
        prompt_tokens_details: { cached_tokens: 600 },
        completion_tokens_details: { reasoning_tokens: 25 },
      },
    })
    const streamed = await post(responses(), responsesBody('hi'))
    expect(streamed.events.at(-1)?.data).toMatchObject({
      type: 'response.completed',
      response: {
        usage: {
          input_tokens: 900,
          input_tokens_details: { cached_tokens: 600 },
          output_tokens: 40,
          output_tokens_details: { reasoning_tokens: 25 },
          total_tokens: 940,
        },
      },
    })
  })

  it('tool calls streamed as a first delta with id and name, then the arguments; one completion when not streaming', async () => {
    server.reply(
      { toolCalls: [{ name: 'shell', input: { command: 'ls' }, id: 'call_1' }] },
      { text: 'both', reasoning: 'hm', toolCalls: [{ name: 'shell', input: { command: 'ls' }, id: 'call_2' }] },
    )
    const answer = await post(completions(), chatBody('hi'))
    const deltas = answer.events.slice(0, -1).map((event) => (event.data as { choices: { delta: unknown }[] }).choices[0]?.delta)
    expect(deltas).toEqual([
      { role: 'assistant', content: null },
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'shell', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"command":"ls"}' } }] },
      {},
    ])
    const whole = await post(completions(), chatBody('hi', { stream: false }))
    expect(JSON.parse(whole.text).choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'both',
          reasoning_content: 'hm',
          tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } }],
          refusal: null,
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ])
  })
})

describe('errors', () => {
  it('OpenAI’s error body on both APIs, retry-after and retry-after-ms; a compatible server’s own body as JSON', async () => {
    server.reply(
      apiError(429, 'Rate limit reached', { retryAfter: 1, retryAfterMs: 250 }),
      apiError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' }),
      json(422, { detail: [{ loc: ['body', 'model'], msg: 'field required' }] }),
    )
    const limited = await post(responses(), responsesBody('hi'))
    expect(limited.status).toBe(429)
    expect([limited.headers.get('retry-after'), limited.headers.get('retry-after-ms')]).toEqual(['1', '250'])
    expect(JSON.parse(limited.text)).toEqual({
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    })
    const unauthorized = await post(completions(), chatBody('hi'))
    expect(JSON.parse(unauthorized.text)).toEqual({
      error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    })
    const unprocessable = await post(completions(), chatBody('hi'))
    expect([unprocessable.status, unprocessable.headers.get('content-type'), JSON.parse(unprocessable.text)]).toEqual([
      422,
      'application/json',
      { detail: [{ loc: ['body', 'model'], msg: 'field required' }] },
    ])
  })
})
