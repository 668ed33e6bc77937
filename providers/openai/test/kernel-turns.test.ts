import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type FakeOpenAI, json, sse, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chatCalls, chatText } from './chat-wire.js'
import { kernelHarnessPerTest, readEvents } from './kernel-harness.js'
import { call, responsesStream, text } from './responses-wire.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(() => server.close())

const setup = kernelHarnessPerTest()

describe('a kernel turn through the Responses API', () => {
  it('runs model → read_file → model: two requests, the second carrying the call and its output', async () => {
    const h = setup({ model: { baseURL: server.baseURL } })
    writeFileSync(join(h.cwd, 'a.txt'), 'alpha\n')
    server.reply(
      sse(responsesStream([text('Reading.'), call('call_1', 'read_file', { path: 'a.txt' })])),
      sse(responsesStream([text('It says alpha.', ['It says ', 'alpha.'])])),
    )
    const session = await h.kernel.startSession()
    const result = await session.run('what is in a.txt?')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'It says alpha.' })
    expect(server.requests).toHaveLength(2)
    const second = server.requests[1]!.body
    expect(second.instructions).toBe('You are a coding agent.')
    expect(second.tools.map((tool: { name: string }) => tool.name)).toEqual(['shell', 'read_file', 'write_file', 'edit_file'])
    expect(second.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is in a.txt?' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'alpha\n' },
    ])
    expect(h.counts).toEqual({ preStep: 2, modelRequest: 2 })
  })

  it('429 with retry-after: 1 is retried once by the kernel after 1000 ms; the step boundaries ran once', async () => {
    const h = setup({ model: { baseURL: server.baseURL } })
    server.reply(
      json(
        429,
        { error: { message: 'Rate limit reached for gpt-test.', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '1' },
      ),
      sse(responsesStream([text('Hello after the wait.')])),
    )
    const session = await h.kernel.startSession()
    const result = await session.run('hi')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'Hello after the wait.' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body)
    expect(h.counts).toEqual({ preStep: 1, modelRequest: 1 })
    const host = new URL(server.baseURL).host
    expect(h.notices).toEqual([
      `model gpt-test failed (${host} error 429 (rate_limit_exceeded): Rate limit reached for gpt-test.); retrying in 1000 ms (attempt 2 of 4)`,
    ])
  })

  it('a stream cut mid-way is retried: exactly two requests, the answer from the second, boundaries once', async () => {
    const h = setup({ model: { baseURL: server.baseURL } })
    server.reply(
      sse(responsesStream([text('Hello world', ['Hel', 'lo', ' world'])]), { cutAfter: 5 }),
      sse(responsesStream([text('Hello world', ['Hello', ' world'])])),
    )
    const session = await h.kernel.startSession()
    const result = await session.run('hi')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'Hello world' })
    expect(server.requests).toHaveLength(2)
    expect(h.counts).toEqual({ preStep: 1, modelRequest: 1 })
    expect(h.notices).toHaveLength(1)
    expect(h.notices[0]).toContain('the stream ended before the response completed')
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(1)
  })

  it('a final error fails the turn with its message after one request', async () => {
    const h = setup({ model: { baseURL: server.baseURL } })
    const message = 'Incorrect API key provided: sk-test.'
    server.reply(json(401, { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }))
    const session = await h.kernel.startSession()
    const result = await session.run('hi')
    expect(result.status).toBe('failed')
    expect(result.error).toBe(`${new URL(server.baseURL).host} error 401 (invalid_api_key): ${message} — check the apiKey option`)
    expect(server.requests).toHaveLength(1)
  })

  it('interrupting the session aborts the held request; the turn ends interrupted, nothing is retried', async () => {
    const h = setup({ model: { baseURL: server.baseURL } })
    server.reply(sse(responsesStream([text('Hello world', ['Hel', 'lo', ' world'])]).slice(0, 5), { hold: true }))
    const session = await h.kernel.startSession()
    const running = session.run('hi')
    await (await server.waitForRequest(0)).held
    session.interrupt('user pressed escape')
    const result = await running
    expect(result).toMatchObject({ status: 'interrupted', reason: 'user pressed escape' })
    await server.requests[0]!.aborted
    expect(server.requests).toHaveLength(1)
    const end = readEvents(session.transcriptPath).find((event) => event.type === 'turn/end')
    expect(end).toMatchObject({ status: 'interrupted' })
  })
})

describe('a kernel turn through the Chat Completions API', () => {
  it('runs parallel read_file calls and answers; the results follow the assistant message in call order', async () => {
    const h = setup({ model: { baseURL: server.baseURL, api: 'chat', model: 'deepseek-chat' } })
    writeFileSync(join(h.cwd, 'a.txt'), 'alpha')
    writeFileSync(join(h.cwd, 'b.txt'), 'beta')
    server.reply(
      sse(
        chatCalls(
          [
            { id: 'call_a', name: 'read_file', chunks: ['{"path":', '"a.txt"}'] },
            { id: 'call_b', name: 'read_file', chunks: ['{"path":', '"b.txt"}'] },
          ],
          { interleave: true },
        ),
      ),
      sse(chatText(['alpha and beta'])),
    )
    const session = await h.kernel.startSession()
    const result = await session.run('read a.txt and b.txt')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'alpha and beta' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]!.body.messages).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'read a.txt and b.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'alpha' },
      { role: 'tool', tool_call_id: 'call_b', content: 'beta' },
    ])
  })

  it('a model call with malformed arguments gets an error result it can correct', async () => {
    const h = setup({ model: { baseURL: server.baseURL, api: 'chat' } })
    server.reply(sse(chatCalls([{ id: 'call_x', name: 'read_file', chunks: ['{"path": "a.txt"'] }])), sse(chatText(['Sorry.'])))
    const session = await h.kernel.startSession()
    const result = await session.run('read a.txt')
    expect(result.status).toBe('completed')
    const messages = server.requests[1]!.body.messages
    expect(messages[2].tool_calls[0].function.arguments).toBe('{"path": "a.txt"')
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_x' })
    expect(messages[3].content).toMatch(/^Invalid input for tool "read_file"/)
  })
})
