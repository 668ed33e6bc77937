import { assistantMessage, type Message, type ModelCallOptions, userMessage } from '@harness-kernel/kernel'
import { type FakeAnthropic, sse, startFakeAnthropic } from '@harness-kernel/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AnthropicProvider, anthropicModel, createAnthropicProvider } from '../src/index.js'
import { frame, message, messageEnd, messageStart, text, toolUse } from './sse.js'

let server: FakeAnthropic
beforeEach(async () => {
  server = await startFakeAnthropic({ strict: true })
})
afterEach(async () => {
  await server.close()
})

const provider = (extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
  new AnthropicProvider({ model: 'claude-test-1', baseURL: server.baseURL, apiKey: 'test-key', ...extra })
const call = (extra: Partial<ModelCallOptions> = {}): ModelCallOptions => ({
  signal: new AbortController().signal,
  attempt: 1,
  sessionId: 's',
  turnId: 't',
  step: 1,
  ...extra,
})
const toolResult = (callId: string, output: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', callId, output, isError: false }],
  source: { kind: 'tool' },
})

describe('the provider over a real local Messages API', () => {
  it('streams text: deltas as they come, the assembled text, stop reason, usage and model; one POST /v1/messages', async () => {
    const counts = { inputTokens: 25, cacheReadTokens: 100, cacheWriteTokens: 40, outputTokens: 7, model: 'claude-test-1-20260101' }
    server.reply(sse(message([text('Hello there!')], counts)))
    const deltas: string[] = []
    const response = await provider().generate(
      { system: 'be terse', messages: [userMessage('hi')], tools: [] },
      call({ onTextDelta: (delta) => deltas.push(delta) }),
    )
    expect(response).toEqual({
      content: [{ type: 'text', text: 'Hello there!' }],
      stopReason: 'end_turn',
      // Input counts the cache's parts too (25 + 100 + 40), which are kept as such.
      usage: { inputTokens: 165, outputTokens: 7, cacheReadInputTokens: 100, cacheCreationInputTokens: 40 },
      id: 'msg_01',
      model: 'claude-test-1-20260101',
    })
    expect(deltas).toEqual(['Hello ', 'there!'])
    expect(server.requests).toHaveLength(1)
    const [request] = server.requests
    expect(request).toMatchObject({ method: 'POST', url: '/v1/messages' })
    expect(request!.body).toEqual({
      model: 'claude-test-1',
      max_tokens: 16384,
      system: 'be terse',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stream: true,
    })
    // This SDK (1.14.0) sends an API key as a bearer token, with its pinned API version.
    expect(request!.headers.authorization).toBe('Bearer test-key')
    expect(request!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(request!.headers['content-type']).toBe('application/json')
  })

  it('returns one tool call with its input assembled from input_json_delta fragments', async () => {
    server.reply(sse(message([toolUse('toolu_01A', 'shell', { command: 'ls -la', timeout_ms: 5000 })])))
    const response = await provider().generate(
      {
        messages: [userMessage('list')],
        tools: [{ name: 'shell', description: 'Runs a command.', inputSchema: { type: 'object' } }],
      },
      call(),
    )
    expect(response.content).toEqual([
      { type: 'tool_call', id: 'toolu_01A', name: 'shell', input: { command: 'ls -la', timeout_ms: 5000 } },
    ])
    expect(response.stopReason).toBe('tool_use')
    expect(server.requests[0]!.body.tools).toEqual([{ name: 'shell', description: 'Runs a command.', input_schema: { type: 'object' } }])
  })

  it('returns parallel tool calls and text in the order the model produced them', async () => {
    server.reply(
      sse(
        message([
          text('Reading both files.'),
          toolUse('toolu_1', 'read_file', { path: 'a.ts' }),
          toolUse('toolu_2', 'read_file', { path: 'b.ts' }),
        ]),
      ),
    )
    const response = await provider().generate({ messages: [userMessage('read a and b')], tools: [] }, call())
    expect(response.content).toEqual([
      { type: 'text', text: 'Reading both files.' },
      { type: 'tool_call', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_call', id: 'toolu_2', name: 'read_file', input: { path: 'b.ts' } },
    ])
  })

  it('a tool call without input fragments has input {}', async () => {
    server.reply(
      sse([
        messageStart(),
        frame('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_9', name: 'status', input: {} } }),
        frame('content_block_stop', { index: 0 }),
        ...messageEnd({ stopReason: 'tool_use' }),
      ]),
    )
    const response = await provider().generate({ messages: [userMessage('status?')], tools: [] }, call())
    expect(response.content).toEqual([{ type: 'tool_call', id: 'toolu_9', name: 'status', input: {} }])
  })

  it('a tool call cut by max_tokens is a non-retryable error that says to raise maxTokens', async () => {
    server.reply(
      sse([
        messageStart(),
        frame('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_7', name: 'write_file', input: {} } }),
        frame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a.ts","content":"lo' } }),
        frame('content_block_stop', { index: 0 }),
        ...messageEnd({ stopReason: 'max_tokens' }),
      ]),
    )
    await expect(provider().generate({ messages: [userMessage('write')], tools: [] }, call())).rejects.toMatchObject({
      name: 'ModelError',
      retryable: false,
      message:
        "the model's call to write_file (toolu_7) is incomplete: the response reached max_tokens in the middle of it; raise maxTokens",
    })
  })

  it('sends extra headers, and declares system messages only with developerMessages: system', async () => {
    server.reply(sse(message([text('ok')])))
    const model = provider({ headers: { 'anthropic-beta': 'test-beta-2026-01-01' } })
    await model.generate({ messages: [userMessage('hi')], tools: [] }, call())
    expect(server.requests[0]!.headers['anthropic-beta']).toBe('test-beta-2026-01-01')
    expect(model.capabilities).toEqual({ systemMessagesInConversation: false })
    expect(provider({ developerMessages: 'system' }).capabilities).toEqual({ systemMessagesInConversation: true })
  })

  it('authToken is sent as a bearer token; ids default to anthropic:<model>', async () => {
    server.reply(sse(message([text('ok')])))
    const model = new AnthropicProvider({ model: 'claude-test-2', baseURL: server.baseURL, authToken: 'tok-1' })
    expect(model.id).toBe('anthropic:claude-test-2')
    expect(createAnthropicProvider({ model: 'm', apiKey: 'k', id: 'mine' }).id).toBe('mine')
    await model.generate({ messages: [userMessage('hi')], tools: [] }, call())
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-1')
  })

  it('the plugin is named model-anthropic and exposes its provider', () => {
    const plugin = anthropicModel({ model: 'claude-test-1', apiKey: 'k', baseURL: server.baseURL })
    expect(plugin.name).toBe('model-anthropic')
    expect(plugin.model).toBeInstanceOf(AnthropicProvider)
  })

  it('replays thinking blocks unchanged in the next request of a tool loop', async () => {
    const thinkingFrames = [
      messageStart(),
      frame('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      frame('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'I should list ' } }),
      frame('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'the files.' } }),
      frame('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' } }),
      frame('content_block_stop', { index: 0 }),
      frame('content_block_start', { index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' } }),
      frame('content_block_stop', { index: 1 }),
      frame('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_T', name: 'shell', input: {} } }),
      frame('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"command":"ls"}' } }),
      frame('content_block_stop', { index: 2 }),
      ...messageEnd({ stopReason: 'tool_use' }),
    ]
    server.reply(sse(thinkingFrames), sse(message([text('two files')])))
    const model = provider({ thinking: { budgetTokens: 1024 } })
    const deltas: string[] = []
    const first = await model.generate({ messages: [userMessage('list')], tools: [] }, call({ onTextDelta: (d) => deltas.push(d) }))
    expect(first.content).toEqual([{ type: 'tool_call', id: 'toolu_T', name: 'shell', input: { command: 'ls' } }])
    expect(deltas).toEqual([])
    const messages = [userMessage('list'), assistantMessage(structuredClone(first.content)), toolResult('toolu_T', 'a\nb')]
    await model.generate({ messages, tools: [] }, call({ step: 2 }))
    expect(server.requests[1]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 })
    expect(server.requests[1]!.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should list the files.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'tool_use', id: 'toolu_T', name: 'shell', input: { command: 'ls' } },
      ],
    })
  })
})
