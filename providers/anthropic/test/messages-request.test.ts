import { assistantMessage, contextMessage, type Message, ModelError, type ModelRequest, userMessage } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { resolveOptions } from '../src/anthropic-options.js'
import { buildMessagesRequest, toMessageParams } from '../src/messages-request.js'

const toolMessage = (callId: string, output: string, isError = false): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', callId, output, isError }],
  source: { kind: 'tool' },
})
const call = (id: string, name: string, input: unknown) => ({ type: 'tool_call' as const, id, name, input })
const options = resolveOptions({ model: 'claude-test-1' })

describe('the request body', () => {
  it('carries model, max_tokens, system, tools and stream:true; no tool_choice (auto)', () => {
    const request: ModelRequest = {
      system: 'be terse',
      messages: [userMessage('hi')],
      tools: [
        { name: 'shell', description: 'Runs a command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
      ],
    }
    expect(buildMessagesRequest(request, options)).toEqual({
      model: 'claude-test-1',
      max_tokens: 16384,
      system: 'be terse',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        { name: 'shell', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
      ],
      stream: true,
    })
  })

  it('leaves out an empty system prompt, an empty tool list and an empty description', () => {
    const body = buildMessagesRequest(
      { system: '', messages: [userMessage('hi')], tools: [{ name: 'noop', description: '', inputSchema: { type: 'object' } }] },
      options,
    )
    expect(body).not.toHaveProperty('system')
    expect(body.tools).toEqual([{ name: 'noop', input_schema: { type: 'object' } }])
    expect(buildMessagesRequest({ messages: [userMessage('hi')], tools: [] }, options)).not.toHaveProperty('tools')
  })

  it('maps thinking, maxTokens and prompt caching options', () => {
    const request = { messages: [userMessage('hi')], tools: [] }
    expect(buildMessagesRequest(request, resolveOptions({ model: 'm', thinking: { budgetTokens: 2048 } }))).toMatchObject({
      max_tokens: 16384 + 2048,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    })
    expect(buildMessagesRequest(request, resolveOptions({ model: 'm', thinking: 'adaptive', maxTokens: 4000 }))).toMatchObject({
      max_tokens: 4000,
      thinking: { type: 'adaptive' },
    })
    expect(buildMessagesRequest(request, resolveOptions({ model: 'm', promptCaching: true })).cache_control).toEqual({ type: 'ephemeral' })
    expect(buildMessagesRequest(request, resolveOptions({ model: 'm', promptCaching: { ttl: '1h' } })).cache_control).toEqual({
      type: 'ephemeral',
      ttl: '1h',
    })
  })

  it('rejects options a person got wrong, saying what to fix', () => {
    expect(() => resolveOptions({ model: '' })).toThrow(
      "anthropicModel: `model` is required, e.g. anthropicModel({ model: 'claude-sonnet-4-5' })",
    )
    expect(() => resolveOptions({ model: 'm', apiKey: 'a', authToken: 'b' })).toThrow('give either `apiKey` or `authToken`, not both')
    expect(() => resolveOptions({ model: 'm', thinking: { budgetTokens: 100 } })).toThrow(
      'thinking.budgetTokens must be an integer of at least 1024, got 100',
    )
    expect(() => resolveOptions({ model: 'm', maxTokens: 2000, thinking: { budgetTokens: 4096 } })).toThrow(
      'thinking.budgetTokens (4096) must be less than maxTokens (2000)',
    )
    expect(() => resolveOptions({ model: 'm', maxTokens: 0 })).toThrow('maxTokens must be a positive integer, got 0')
  })
})

describe('the message mapping', () => {
  it('assistant tool calls become tool_use; consecutive tool results merge into one user message', () => {
    const messages = [
      userMessage('list and count'),
      assistantMessage([
        { type: 'text', text: 'Running both.' },
        call('toolu_1', 'shell', { command: 'ls' }),
        call('toolu_2', 'shell', {}),
      ]),
      toolMessage('toolu_1', 'a.ts\nb.ts'),
      toolMessage('toolu_2', 'boom', true),
    ]
    expect(toMessageParams(messages, 'reminder')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list and count' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Running both.' },
          { type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: 'ls' } },
          { type: 'tool_use', id: 'toolu_2', name: 'shell', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts\nb.ts' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'boom', is_error: true },
        ],
      },
    ])
  })

  it('developer messages become <system-reminder> text in the adjacent user message, after its tool results', () => {
    const messages = [
      contextMessage('ide', 'open file: a.ts'),
      userMessage('fix it'),
      assistantMessage([call('toolu_1', 'shell', { command: 'make' })]),
      contextMessage('policy', 'mind the tests'),
      toolMessage('toolu_1', 'ok'),
      userMessage('and then?'),
      assistantMessage([{ type: 'text', text: 'done' }]),
      contextMessage('codex', 'turn ended'),
    ]
    expect(toMessageParams(messages, 'reminder')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>\nopen file: a.ts\n</system-reminder>' },
          { type: 'text', text: 'fix it' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: 'make' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' },
          { type: 'text', text: '<system-reminder>\nmind the tests\n</system-reminder>' },
          { type: 'text', text: 'and then?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nturn ended\n</system-reminder>' }] },
    ])
  })

  it("with developerMessages: 'system', developer messages are system turns in place", () => {
    const messages = [userMessage('hi'), contextMessage('ide', 'ctx'), userMessage('again')]
    expect(toMessageParams(messages, 'system')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'system', content: [{ type: 'text', text: 'ctx' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ])
  })

  it('leaves out empty text, empty messages and an empty tool output; maps ids and inputs the API would refuse', () => {
    const messages = [
      userMessage('hi'),
      assistantMessage([]),
      contextMessage('x', ''),
      userMessage(''),
      assistantMessage([{ type: 'text', text: '' }, call('call.a:1', 'shell', 'not an object')]),
      toolMessage('call.a:1', ''),
    ]
    expect(toMessageParams(messages, 'reminder')).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_a_1', name: 'shell', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a_1' }] },
    ])
  })

  it('a conversation the API cannot take is a non-retryable ModelError that says why', () => {
    const wrong: Message = { role: 'user', content: [call('toolu_1', 'shell', {})], source: { kind: 'user' } }
    let error: unknown
    try {
      toMessageParams([wrong], 'reminder')
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({
      retryable: false,
      message:
        'cannot send this conversation to the Anthropic API: a user message holds a tool_call (shell); tool calls belong to assistant messages',
    })
  })
})
