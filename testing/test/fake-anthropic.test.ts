import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiError, type FakeAnthropic, gate, sse, startFakeAnthropic } from '../src/index.js'
import { messagesBody, post } from './http-client.js'

let server: FakeAnthropic
beforeEach(async () => {
  server = await startFakeAnthropic()
})
afterEach(async () => {
  await server.close()
})

const messages = () => `${server.url}/v1/messages`
const eventNames = (events: { event: string | undefined }[]) => events.map((event) => event.event)

describe('a scripted reply, written as the Messages API streams it', () => {
  it('a text: message_start, ping, one text block, message_delta, message_stop, byte for byte', async () => {
    server.reply({ text: 'Hello there' })
    const answer = await post(messages(), messagesBody('hi'))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/event-stream')
    expect(answer.headers.get('request-id')).toBe('req_fake_0')
    expect(answer.text.split('\n\n').slice(0, 2)).toEqual([
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_fake_0","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}',
      'event: ping\ndata: {"type":"ping"}',
    ])
    expect(eventNames(answer.events)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    expect(answer.events[3]!.data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello there' } })
    expect(answer.events[5]!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 12 },
    })
  })

  it('thinking, text in deltas, then several tool calls, each with an id of its own; the request records them', async () => {
    server.reply({
      reasoning: 'Two files to read.',
      text: ['Reading ', 'both.'],
      toolCalls: [
        { name: 'read_file', input: { path: 'a' } },
        { name: 'read_file', input: { path: 'b' }, id: 'toolu_mine' },
      ],
    })
    const answer = await post(messages(), messagesBody('read a and b', { tools: ['read_file'] }))
    const data = answer.events.map((event) => event.data as Record<string, unknown>)
    const blockStarts = data.filter((event) => event.type === 'content_block_start').map((event) => event.content_block)
    const [first, second] = server.requests[0]!.toolCalls
    expect(first!.id).toMatch(/^toolu_\w+_0_0$/)
    expect(second!.id).toBe('toolu_mine')
    expect(blockStarts).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: first!.id, name: 'read_file', input: {} },
      { type: 'tool_use', id: 'toolu_mine', name: 'read_file', input: {} },
    ])
    const deltas = data.filter((event) => event.type === 'content_block_delta').map((event) => event.delta)
    expect(deltas).toEqual([
      { type: 'thinking_delta', thinking: 'Two files to read.' },
      { type: 'signature_delta', signature: expect.stringMatching(/^fake-signature-/) },
      { type: 'text_delta', text: 'Reading ' },
      { type: 'text_delta', text: 'both.' },
      { type: 'input_json_delta', partial_json: '{"path":"a"}' },
      { type: 'input_json_delta', partial_json: '{"path":"b"}' },
    ])
    expect(data.find((event) => event.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } })
  })

  it('a request that does not ask for a stream gets one JSON message', async () => {
    server.reply({ text: 'plain', toolCalls: [{ name: 'shell', input: { command: 'ls' } }] })
    const answer = await post(messages(), messagesBody('hi', { stream: false }))
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(answer.text)).toEqual({
      id: 'msg_fake_0',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'text', text: 'plain' },
        { type: 'tool_use', id: expect.stringMatching(/^toolu_\w+_0$/), name: 'shell', input: { command: 'ls' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    })
  })

  it('a reply’s usage as Anthropic counts it: input_tokens without the cache’s parts, output at message_delta', async () => {
    const usage = { inputTokens: 1_000, cacheReadInputTokens: 700, cacheCreationInputTokens: 200, outputTokens: 33 }
    server.reply({ text: 'a', usage }, { text: 'b', usage })
    const streamed = await post(messages(), messagesBody('hi'))
    const data = streamed.events.map((event) => event.data as { type: string; message?: { usage: unknown }; usage?: unknown })
    expect(data.find((event) => event.type === 'message_start')?.message?.usage).toEqual({
      input_tokens: 100,
      output_tokens: 1,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 700,
    })
    expect(data.find((event) => event.type === 'message_delta')?.usage).toEqual({ output_tokens: 33 })
    const whole = await post(messages(), messagesBody('hi', { stream: false }))
    expect(JSON.parse(whole.text).usage).toEqual({
      input_tokens: 100,
      output_tokens: 33,
      cache_creation_input_tokens: 200,
      cache_read_input_tokens: 700,
    })
  })

  it('with nothing queued, a request gets `FINAL reply to request #N` (N counts model requests from 0)', async () => {
    await post(messages(), messagesBody('one', { tools: ['shell'] }))
    const answer = await post(messages(), messagesBody('two', { tools: ['shell'] }))
    expect(answer.events[3]!.data).toMatchObject({ delta: { text: 'FINAL reply to request #1' } })
  })
})

describe('pacing: held, slow, chunked', () => {
  it('a reply held until released: the stream has begun, the request says `held`, the rest follows the release', async () => {
    const release = gate()
    server.reply({ text: 'after the release', heldUntil: release.opened })
    const pending = post(messages(), messagesBody('hi'))
    const request = await server.waitForRequest(0)
    await request.held
    expect(request.endedAt).toBeUndefined()
    release.open()
    const answer = await pending
    expect(answer.events[3]!.data).toMatchObject({ delta: { text: 'after the release' } })
    expect(request.endedAt).toBeGreaterThan(request.at)
  })

  it('chunkDelayMs and delayMs hold the stream: the answer ends no earlier than they add up to', async () => {
    server.reply({ text: ['a', 'b', 'c'], chunkDelayMs: 20, delayMs: 30 })
    await post(messages(), messagesBody('hi'))
    const [request] = server.requests
    expect(request!.endedAt! - request!.firstByteAt!).toBeGreaterThanOrEqual(80)
  })
})

describe('failures', () => {
  it('an API error: the status, Anthropic’s error body, retry-after', async () => {
    server.reply(apiError(429, 'slow down', { retryAfter: 3, retryAfterMs: 1500 }), apiError(529, 'busy', { type: 'overloaded_error' }))
    const limited = await post(messages(), messagesBody('hi'))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('3')
    expect(limited.headers.get('retry-after-ms')).toBe('1500')
    expect(JSON.parse(limited.text)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
      request_id: 'req_fake_0',
    })
    const busy = await post(messages(), messagesBody('hi'))
    expect(busy.status).toBe(529)
    expect(JSON.parse(busy.text).error).toEqual({ type: 'overloaded_error', message: 'busy' })
  })

  it('a stream cut after some events: the client sees a closed connection, the request is recorded as aborted', async () => {
    server.reply({ text: 'never finished', disconnectAfterEvents: 3 })
    await expect(post(messages(), messagesBody('hi'))).rejects.toThrow()
    await server.requests[0]!.aborted
    expect(server.events.map((event) => event.ev)).toEqual(['start', 'aborted'])
  })

  it('frames cut mid-way, a connection closed without an answer, a request never answered', async () => {
    server.reply(sse(['event: ping\ndata: {"type":"ping"}\n\n', 'event: ping\ndata: {"type":"ping"}\n\n'], { cutAfter: 1 }), {
      kind: 'disconnect',
    })
    await expect(post(messages(), messagesBody('cut'))).rejects.toThrow()
    await expect(post(messages(), messagesBody('closed'))).rejects.toThrow()
    server.reply({ kind: 'no-answer' })
    const controller = new AbortController()
    const silent = fetch(messages(), { method: 'POST', body: JSON.stringify(messagesBody('silent')), signal: controller.signal })
    const request = await server.waitForRequest(2)
    controller.abort()
    await expect(silent).rejects.toThrow()
    await request.aborted
    expect(request.firstByteAt).toBeUndefined()
  })

  it('frames held open: `held` settles once they are written; the client going away ends it', async () => {
    server.reply(sse(['event: ping\ndata: {"type":"ping"}\n\n'], { hold: true }))
    const controller = new AbortController()
    const response = await fetch(messages(), { method: 'POST', body: JSON.stringify(messagesBody('hold')), signal: controller.signal })
    const request = await server.waitForRequest(0)
    await request.held
    expect(response.status).toBe(200)
    controller.abort()
    await request.closed
    expect(request.abortedAt).toBeDefined()
  })

  it('strict: a request with nothing queued gets a 500 naming it', async () => {
    const strict = await startFakeAnthropic({ strict: true })
    try {
      const answer = await post(`${strict.url}/v1/messages`, messagesBody('extra'))
      expect(answer.status).toBe(500)
      expect(JSON.parse(answer.text).error.message).toBe('fake Anthropic, request #0: no reply queued or scripted (POST /v1/messages)')
    } finally {
      await strict.close()
    }
  })

  it('a bad reply is refused where it is queued, naming what is wrong', () => {
    expect(() => server.reply({ toolCalls: [{ name: '', input: {} }] })).toThrow(
      'fake Anthropic, reply 1 of 1 queued: a tool call without a name: {"name":"","input":{}}',
    )
    expect(() => server.reply({ kind: 'error', status: 42, message: 'x' })).toThrow('needs an HTTP status (100-599), got 42')
  })
})

describe('the request log', () => {
  it('records method, path, headers, parsed body; other requests apart; waits for the Nth request without polling', async () => {
    const third = server.waitForRequest(2)
    await post(`${server.url}/v1/messages/count_tokens`, { messages: [] }).then((answer) =>
      expect(answer.text).toBe('{"input_tokens":1234}'),
    )
    for (const text of ['one', 'two', 'three']) await post(messages(), messagesBody(text), { 'x-test': text })
    const request = await third
    expect(request).toMatchObject({ n: 2, method: 'POST', url: '/v1/messages', path: '/v1/messages', api: 'messages' })
    expect(request.headers['x-test']).toBe('three')
    expect(request.body.messages[0].content[0].text).toBe('three')
    expect(request.bytes).toBe(JSON.stringify(messagesBody('three')).length)
    expect(server.requests.map((entry) => entry.n)).toEqual([0, 1, 2])
    expect(server.otherRequests.map((entry) => entry.path)).toEqual(['/v1/messages/count_tokens'])
    await expect(server.waitForRequest(9, { timeoutMs: 20 })).rejects.toThrow(
      'fake Anthropic: request #9 did not arrive within 20 ms (3 arrived)',
    )
    server.reset()
    expect(server.requests).toEqual([])
  })

  it('a script answers what the queue does not, seeing each request; onRequest sees it first', async () => {
    const seen: number[] = []
    const scripted = await startFakeAnthropic({
      onRequest: (request) => seen.push(request.n),
      script: (request) => (request.n === 0 ? { text: `you said ${request.body.messages[0].content[0].text}` } : undefined),
    })
    try {
      const first = await post(`${scripted.url}/v1/messages`, messagesBody('hello'))
      const second = await post(`${scripted.url}/v1/messages`, messagesBody('again'))
      expect(first.events[3]!.data).toMatchObject({ delta: { text: 'you said hello' } })
      expect(second.events[3]!.data).toMatchObject({ delta: { text: 'side reply #1' } })
      expect(seen).toEqual([0, 1])
    } finally {
      await scripted.close()
    }
  })
})
