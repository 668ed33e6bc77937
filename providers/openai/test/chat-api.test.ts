import { ModelError } from '@harness-kernel/kernel'
import { type FakeOpenAI, sse, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAIProvider, type OpenAIModelOptions } from '../src/index.js'
import { chatCalls, chatText, chunk, DONE, data } from './chat-wire.js'
import { assistant, developer, generate, READ_FILE_SPEC, toolResult, user } from './provider-call.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(() => server.close())

const provider = (options: Partial<OpenAIModelOptions> = {}) =>
  createOpenAIProvider({ model: 'deepseek-chat', api: 'chat', baseURL: server.baseURL, apiKey: 'sk-test', ...options })

describe('Chat Completions: text', () => {
  it('streams text deltas, returns text, finish_reason, the usage chunk and the model; one request, exactly as mapped', async () => {
    server.reply(sse(chatText(['Hel', 'lo'], { prompt_tokens: 20, completion_tokens: 2, cached_tokens: 16, reasoning_tokens: 1 })))
    const deltas: string[] = []
    const response = await generate(provider(), { system: 'Be brief.', messages: [user('hi')] }, { deltas })
    expect(deltas).toEqual(['Hel', 'lo'])
    expect(response).toEqual({
      content: [{ type: 'text', text: 'Hello' }],
      stopReason: 'stop',
      usage: { inputTokens: 20, outputTokens: 2, cacheReadInputTokens: 16, reasoningTokens: 1 },
      id: 'chatcmpl-1',
      model: 'gpt-test',
    })
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]!.path).toBe('/v1/chat/completions')
    expect(server.requests[0]!.body).toEqual({
      model: 'deepseek-chat',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    })
  })

  it('sends options: temperature, max_tokens (not an OpenAI host), reasoning_effort', async () => {
    server.reply(sse(chatText(['ok'])))
    await generate(provider({ temperature: 0, maxOutputTokens: 64, reasoning: { effort: 'high', summary: 'auto' } }), {})
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0, max_tokens: 64, reasoning_effort: 'high' })
    expect(server.requests[0]!.body).not.toHaveProperty('max_completion_tokens')
  })

  it('a stream with finish_reason but no usage chunk (older servers) is complete', async () => {
    server.reply(sse([chunk({ role: 'assistant', content: 'Hi' }), chunk({}, 'stop'), DONE]))
    const response = await generate(provider(), {})
    expect(response).toEqual({ content: [{ type: 'text', text: 'Hi' }], stopReason: 'stop', id: 'chatcmpl-1', model: 'gpt-test' })
  })
})

describe('Chat Completions: request mapping', () => {
  it('developer messages take developerRole; ones between a call and its result move after the last result', async () => {
    server.reply(sse(chatText(['ok'])), sse(chatText(['ok'])))
    const messages = [
      user('read both'),
      developer('prompt context'),
      assistant([
        { type: 'tool_call', id: 'call_a', name: 'read_file', input: { path: 'a' } },
        { type: 'tool_call', id: 'call_b', name: 'read_file', input: { path: 'b' } },
      ]),
      developer('pre a'),
      toolResult('call_a', 'A'),
      developer('pre b'),
      developer('post b'),
      toolResult('call_b', 'B', true),
      assistant([{ type: 'text', text: 'A and B.' }]),
      user('thanks'),
    ]
    await generate(provider(), { messages, tools: [READ_FILE_SPEC] })
    expect(server.requests[0]!.body.messages).toEqual([
      { role: 'user', content: 'read both' },
      { role: 'system', content: 'prompt context' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
          { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      { role: 'tool', tool_call_id: 'call_b', content: 'B' },
      { role: 'system', content: 'pre a' },
      { role: 'system', content: 'pre b' },
      { role: 'system', content: 'post b' },
      { role: 'assistant', content: 'A and B.' },
      { role: 'user', content: 'thanks' },
    ])
    expect(server.requests[0]!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: 'Reads a file.',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      },
    ])

    await generate(provider({ developerRole: 'developer' }), { messages: [user('x'), developer('ctx')] })
    expect(server.requests[1]!.body.messages[1]).toEqual({ role: 'developer', content: 'ctx' })
  })

  it('assistant text and tool calls are one message, text first', async () => {
    server.reply(sse(chatText(['ok'])))
    await generate(provider(), {
      messages: [
        user('go'),
        assistant([
          { type: 'text', text: 'Looking.' },
          { type: 'tool_call', id: 'call_1', name: 'read_file', input: { path: 'a' } },
        ]),
        toolResult('call_1', 'A'),
      ],
    })
    expect(server.requests[0]!.body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Looking.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
    })
  })
})

describe('Chat Completions: tool calls', () => {
  it('one call after text: deltas assembled, arguments parsed, finish_reason tool_calls', async () => {
    server.reply(sse(chatCalls([{ id: 'call_1', name: 'read_file', chunks: ['{"pa', 'th": "a.txt"}'] }], { text: ['Let me ', 'look.'] })))
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_call', id: 'call_1', name: 'read_file', input: { path: 'a.txt' } },
    ])
    expect(response.stopReason).toBe('tool_calls')
  })

  it('parallel calls with interleaved deltas are assembled by index, in index order', async () => {
    server.reply(
      sse(
        chatCalls(
          [
            { id: 'call_a', name: 'read_file', chunks: ['{"path"', ': "a"}'] },
            { id: 'call_b', name: 'shell', chunks: ['{"command"', ': "ls"', '}'] },
          ],
          { interleave: true },
        ),
      ),
    )
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_call', id: 'call_b', name: 'shell', input: { command: 'ls' } },
    ])
  })

  it('calls sent whole without index (some compatible servers) are each kept', async () => {
    server.reply(
      sse([
        chunk({
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
            { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
          ],
        }),
        chunk({}, 'tool_calls'),
        DONE,
      ]),
    )
    const response = await generate(provider(), { tools: [READ_FILE_SPEC] })
    expect(response.content.map((block) => block.type === 'tool_call' && block.id)).toEqual(['call_a', 'call_b'])
  })
})

describe('Chat Completions: failures inside the stream', () => {
  it('an error object in the stream becomes a ModelError with the server message', async () => {
    server.reply(
      sse([
        chunk({ role: 'assistant', content: 'Hi' }),
        data({ error: { message: 'upstream overloaded', type: 'server_error', code: null } }),
      ]),
    )
    const error = await generate(provider(), {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({ retryable: true, message: `${new URL(server.baseURL).host} error (server_error): upstream overloaded` })
  })

  it('a stream that ends without finish_reason was cut: retryable', async () => {
    server.reply(sse(chatText(['Hel', 'lo']), { endAfter: 2 }))
    const error = await generate(provider(), {}).catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      retryable: true,
      message: `${new URL(server.baseURL).host}: the stream ended before the response completed`,
    })
  })
})
