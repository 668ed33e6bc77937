import { ModelError } from '@harness-kernel/kernel'
import { type FakeOpenAI, sse, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAIProvider, type OpenAIModelOptions } from '../src/index.js'
import { assistant, developer, generate, READ_FILE_SPEC, toolResult, user } from './provider-call.js'
import { call, ResponsesWire, responsesStream, text } from './responses-wire.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(() => server.close())

const provider = (options: Partial<OpenAIModelOptions> = {}) =>
  createOpenAIProvider({ model: 'gpt-test', baseURL: server.baseURL, apiKey: 'sk-test', ...options })

describe('Responses API: text', () => {
  it('streams text deltas, returns the text, the stop reason, usage and model; one request, exactly as mapped', async () => {
    const usage = { input_tokens: 12, output_tokens: 3, cached_tokens: 8, reasoning_tokens: 2 }
    server.reply(sse(responsesStream([text('Hello there', ['Hel', 'lo', ' there'])], usage)))
    const deltas: string[] = []
    const response = await generate(provider(), { system: 'Be brief.', messages: [user('hi')] }, { deltas })
    expect(deltas).toEqual(['Hel', 'lo', ' there'])
    // Cached input is part of input_tokens, reasoning part of output_tokens: kept as parts, never added.
    expect(response).toEqual({
      content: [{ type: 'text', text: 'Hello there' }],
      stopReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 3, cacheReadInputTokens: 8, reasoningTokens: 2 },
      id: 'resp_1',
      model: 'gpt-test',
    })
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request!.method).toBe('POST')
    expect(request!.path).toBe('/v1/responses')
    expect(request!.headers.authorization).toBe('Bearer sk-test')
    expect(request!.body).toEqual({
      model: 'gpt-test',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      store: false,
      stream: true,
    })
  })

  it('sends options: temperature, max_output_tokens, reasoning, extraBody, headers', async () => {
    server.reply(sse(responsesStream([text('ok')])))
    await generate(
      provider({
        temperature: 0.2,
        maxOutputTokens: 500,
        reasoning: { effort: 'low', summary: 'auto' },
        extraBody: { service_tier: 'flex' },
        headers: { 'x-team': 'kernel' },
      }),
      {},
    )
    const { body, headers } = server.requests[0]!
    expect(body).toMatchObject({
      temperature: 0.2,
      max_output_tokens: 500,
      reasoning: { effort: 'low', summary: 'auto' },
      service_tier: 'flex',
    })
    expect(headers['x-team']).toBe('kernel')
  })

  it('an incomplete response keeps its partial text and says why it stopped', async () => {
    const wire = new ResponsesWire()
    const incomplete = wire.response(
      'incomplete',
      wire.outputOf([text('Partial')]),
      { input_tokens: 5, output_tokens: 16 },
      {
        incomplete_details: { reason: 'max_output_tokens' },
      },
    )
    server.reply(sse([...wire.created(), ...wire.item(0, text('Partial')), wire.frame('response.incomplete', { response: incomplete })]))
    const response = await generate(provider(), {})
    expect(response).toEqual({
      content: [{ type: 'text', text: 'Partial' }],
      stopReason: 'max_output_tokens',
      usage: { inputTokens: 5, outputTokens: 16 },
      id: 'resp_1',
      model: 'gpt-test',
    })
  })
})

describe('Responses API: request mapping', () => {
  it('keeps the kernel order: a developer item between a function_call and its output stays there', async () => {
    server.reply(sse(responsesStream([text('done')])))
    await generate(provider(), {
      system: 'sys',
      messages: [
        user('read a.txt'),
        developer('prompt context'),
        assistant([
          { type: 'text', text: 'Reading.' },
          { type: 'tool_call', id: 'call_1', name: 'read_file', input: { path: 'a.txt' } },
        ]),
        developer('pre-tool context'),
        toolResult('call_1', 'A', false),
        assistant([{ type: 'text', text: 'It says A.' }]),
      ],
      tools: [READ_FILE_SPEC],
    })
    const { body } = server.requests[0]!
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'read a.txt' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'prompt context' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading.', annotations: [] }] },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'pre-tool context' }] },
      { type: 'function_call_output', call_id: 'call_1', output: 'A' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It says A.', annotations: [] }] },
    ])
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'read_file',
        description: 'Reads a file.',
        parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        strict: false,
      },
    ])
    expect(body.parallel_tool_calls).toBe(true)
    expect(JSON.stringify(body)).not.toContain('never')
  })
})

describe('Responses API: tool calls', () => {
  it('one call after some text: the blocks in output order, arguments parsed', async () => {
    server.reply(sse(responsesStream([text('Let me look.'), call('call_a', 'read_file', { path: 'a.txt' }, ['{"pa', 'th":"a.', 'txt"}'])])))
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_call', id: 'call_a', name: 'read_file', input: { path: 'a.txt' } },
    ])
    expect(response.stopReason).toBe('tool_calls')
  })

  it('parallel calls whose argument deltas interleave are told apart by item id', async () => {
    const wire = new ResponsesWire()
    const a = wire.callItem('fc_a', 'call_a', 'read_file', '', 'in_progress')
    const b = wire.callItem('fc_b', 'call_b', 'read_file', '', 'in_progress')
    const delta = (item: string, index: number, piece: string) =>
      wire.frame('response.function_call_arguments.delta', { item_id: item, output_index: index, delta: piece })
    const specs = [call('call_a', 'read_file', { path: 'a' }), call('call_b', 'read_file', { path: 'b' })]
    server.reply(
      sse([
        ...wire.created(),
        wire.frame('response.output_item.added', { output_index: 0, item: a }),
        wire.frame('response.output_item.added', { output_index: 1, item: b }),
        delta('fc_b', 1, '{"path":'),
        delta('fc_a', 0, '{"path":'),
        delta('fc_a', 0, '"a"}'),
        delta('fc_b', 1, '"b"}'),
        wire.completed(specs),
      ]),
    )
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_call', id: 'call_b', name: 'read_file', input: { path: 'b' } },
    ])
  })

  it('arguments that are not JSON stay the raw string, and are replayed verbatim', async () => {
    server.reply(sse(responsesStream([call('call_x', 'read_file', '{"path": "a.txt"')])))
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content).toEqual([{ type: 'tool_call', id: 'call_x', name: 'read_file', input: '{"path": "a.txt"' }])

    server.reply(sse(responsesStream([text('sorry')])))
    await generate(provider(), { messages: [user('go'), assistant(response.content), toolResult('call_x', 'Invalid input', true)] })
    expect(server.requests[1]!.body.input[1]).toEqual({
      type: 'function_call',
      call_id: 'call_x',
      name: 'read_file',
      arguments: '{"path": "a.txt"',
    })
  })

  it('empty arguments are {}', async () => {
    server.reply(sse(responsesStream([call('call_e', 'list', '')])))
    const response = await generate(provider(), {})
    expect(response.content).toEqual([{ type: 'tool_call', id: 'call_e', name: 'list', input: {} }])
  })
})

describe('Responses API: failures inside the stream', () => {
  it('response.failed with server_error is retryable, with the server message', async () => {
    const wire = new ResponsesWire()
    const failed = wire.response('failed', [], null, {
      error: { code: 'server_error', message: 'The server had an error processing your request.' },
    })
    server.reply(sse([...wire.created(), wire.frame('response.failed', { response: failed })]))
    const error = await generate(provider(), {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({
      retryable: true,
      message: `${hostOf(server.baseURL)} error (server_error): The server had an error processing your request.`,
    })
  })

  it('an error event for a too long context is final', async () => {
    const wire = new ResponsesWire()
    const message = 'Your input exceeds the context window of this model. Please adjust your input and try again.'
    server.reply(sse([...wire.created(), wire.frame('error', { code: 'context_length_exceeded', message, param: 'input' })]))
    const error = await generate(provider(), {}).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ retryable: false, message: `${hostOf(server.baseURL)} error (context_length_exceeded): ${message}` })
  })

  it('a rate-limit error event carries the wait its message asks for', async () => {
    const wire = new ResponsesWire()
    const message = 'Rate limit reached for gpt-test on tokens per min (TPM): Limit 30000, Used 29000. Please try again in 1.5s.'
    server.reply(sse([...wire.created(), wire.frame('error', { code: 'rate_limit_exceeded', message, param: null })]))
    const error = await generate(provider(), {}).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 1500 })
  })
})

function hostOf(baseURL: string): string {
  return new URL(baseURL).host
}
