import { definePlugin, defineTool, STAGE_GUARD } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { startTestKernel, type TestKernel } from '@harness-kernel/testing'
import { SpanStatusCode } from '@opentelemetry/api'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { telemetry } from '../src/index.js'
import { counted, inMemoryTelemetry, ms, only, parentOf, spansNamed, total } from './support/in-memory-telemetry.js'

const tools = definePlugin({
  name: 'test-tools',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'lookup',
        description: 'Looks a key up.',
        inputSchema: z.object({ key: z.string() }),
        async execute({ key }) {
          return key === 'missing' ? { output: `no ${key}`, isError: true } : { output: `value of ${key}`, isError: false }
        },
      }),
    )
    // A policy refusing one key: a denied call is an outcome of its own.
    kernel.hooks.toolPreExecute.tap({ name: 'no-secrets', stage: STAGE_GUARD }, (decision, { call }) =>
      (call.input as { key?: string }).key === 'secret' ? { kind: 'deny', reason: 'not that one' } : decision,
    )
  },
})

const kernels: TestKernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
})

async function run(script: Parameters<typeof scriptedModel>[0]['script'], options: Parameters<typeof telemetry>[0] = {}) {
  const memory = inMemoryTelemetry()
  const plugin = telemetry({ tracerProvider: memory.tracerProvider, meterProvider: memory.meterProvider, env: {}, ...options })
  const kernel = await startTestKernel({ plugins: [scriptedModel({ script }), tools, plugin] })
  kernels.push(kernel)
  return { memory, kernel }
}

describe('telemetry on the native loop', () => {
  it('one trace per session: the turn as invoke_agent, each model call as chat with its usage, each tool call as execute_tool', async () => {
    const { memory, kernel } = await run([
      {
        text: 'Looking.',
        tool_calls: [
          { name: 'lookup', input: { key: 'a' }, id: 'call-a' },
          { name: 'lookup', input: { key: 'missing' }, id: 'call-missing' },
          { name: 'lookup', input: { key: 'secret' }, id: 'call-secret' },
        ],
        usage: { inputTokens: 120, outputTokens: 30 },
        id: 'resp-1',
      },
      { text: 'Done.', usage: { inputTokens: 200, outputTokens: 8 } },
    ])
    const outcome = await kernel.run('look things up')
    expect(outcome.status).toBe('completed')
    await kernel.session.end()
    const spans = memory.spans()

    const session = only(spans, 'session')
    expect(session.parentSpanContext).toBeUndefined()
    expect(session.attributes).toMatchObject({
      'harness.session.id': kernel.session.id,
      'gen_ai.conversation.id': kernel.session.id,
      'harness.driver': 'native',
    })
    const turn = only(spans, 'invoke_agent')
    expect(turn.name).toBe('invoke_agent harness')
    expect(parentOf(turn, spans)).toBe(session)
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'harness.turn.status': 'completed',
      'harness.turn.number': 1,
    })
    for (const span of spans) expect(span.spanContext().traceId).toBe(session.spanContext().traceId)

    const chats = spansNamed(spans, 'chat')
    expect(chats.map((chat) => chat.attributes['harness.step'])).toEqual([1, 2])
    expect(chats.map((chat) => parentOf(chat, spans))).toEqual([turn, turn])
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 30,
    })
    expect(chats[1]!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 200, 'gen_ai.usage.output_tokens': 8 })

    const tools = spansNamed(spans, 'execute_tool')
    expect(tools.map((tool) => [tool.name, tool.attributes['gen_ai.tool.call.id'], tool.attributes['harness.tool.outcome']])).toEqual([
      ['execute_tool lookup', 'call-a', 'ok'],
      ['execute_tool lookup', 'call-missing', 'error'],
      ['execute_tool lookup', 'call-secret', 'denied'],
    ])
    expect(tools.map((tool) => parentOf(tool, spans))).toEqual([turn, turn, turn])
    expect(tools[1]!.status.code).toBe(SpanStatusCode.ERROR)
    expect(tools[2]!.attributes['harness.tool.decision']).toBe('deny')
    // The second model call starts once the last tool result is in, not before.
    const lastResult = Math.max(...tools.map((tool) => ms(tool.endTime)))
    expect(ms(chats[1]!.startTime)).toBeGreaterThanOrEqual(lastResult)
    expect(ms(chats[0]!.endTime)).toBeLessThanOrEqual(ms(tools[0]!.startTime))
    // Nothing of the conversation without an opt-in.
    for (const span of spans) {
      expect(Object.keys(span.attributes).filter((key) => /messages|arguments|result|command|summary/.test(key))).toEqual([])
    }

    const metrics = await memory.metrics()
    expect(total(metrics.get('gen_ai.client.token.usage'), { 'gen_ai.token.type': 'input' })).toBe(320)
    expect(total(metrics.get('gen_ai.client.token.usage'), { 'gen_ai.token.type': 'output' })).toBe(38)
    expect(counted(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'chat' })).toBe(2)
    expect(counted(metrics.get('gen_ai.client.operation.duration'), { 'gen_ai.operation.name': 'invoke_agent' })).toBe(1)
    for (const outcome of ['ok', 'error', 'denied']) {
      expect(total(metrics.get('harness.tool.calls'), { 'harness.tool.outcome': outcome, 'gen_ai.tool.name': 'lookup' })).toBe(1)
    }
    expect(total(metrics.get('harness.turns'), { 'harness.turn.status': 'completed' })).toBe(1)
  })

  it("the model's provider names gen_ai.provider.name on the turn, its model calls and the token metric", async () => {
    const memory = inMemoryTelemetry()
    const model = definePlugin({
      name: 'a-provider',
      setup(kernel) {
        kernel.provide('model', {
          id: 'anthropic:claude-test',
          providerName: 'anthropic',
          generate: async () => ({
            content: [{ type: 'text', text: 'hi' }],
            usage: { inputTokens: 5, outputTokens: 1 },
            model: 'claude-test',
          }),
        })
      },
    })
    const plugin = telemetry({ tracerProvider: memory.tracerProvider, meterProvider: memory.meterProvider, env: {} })
    const kernel = await startTestKernel({ plugins: [model, plugin] })
    kernels.push(kernel)
    expect((await kernel.run('hello')).status).toBe('completed')
    await kernel.session.end()
    const spans = memory.spans()
    expect(only(spans, 'invoke_agent').attributes['gen_ai.provider.name']).toBe('anthropic')
    expect(only(spans, 'chat').attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.response.model': 'claude-test' })
    const tokens = (await memory.metrics()).get('gen_ai.client.token.usage')
    expect(counted(tokens, { 'gen_ai.provider.name': 'anthropic', 'gen_ai.token.type': 'input' })).toBe(1)
  })

  it('captures prompts, outputs, tool arguments and results only when asked', async () => {
    const { memory, kernel } = await run(
      [{ tool_calls: [{ name: 'lookup', input: { key: 'a' }, id: 'c1' }] }, { text: 'The value of a.' }],
      { env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' } },
    )
    await kernel.run('what is a?')
    await kernel.session.end()
    const spans = memory.spans()
    expect(JSON.parse(only(spans, 'invoke_agent').attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'what is a?' }] },
    ])
    const tool = only(spans, 'execute_tool')
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ key: 'a' })
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('value of a')
    const [first, second] = spansNamed(spans, 'chat')
    expect(JSON.parse(first!.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'lookup', arguments: { key: 'a' } }] },
    ])
    expect(JSON.parse(second!.attributes['gen_ai.output.messages'] as string)[0].parts).toEqual([
      { type: 'text', content: 'The value of a.' },
    ])
  })

  it('prompts alone: the input is captured, the output and tool content are not', async () => {
    const { memory, kernel } = await run([{ tool_calls: [{ name: 'lookup', input: { key: 'a' } }] }, { text: 'ok' }], {
      capture: { prompts: true },
    })
    await kernel.run('first prompt')
    await kernel.session.end()
    const spans = memory.spans()
    expect(only(spans, 'invoke_agent').attributes['gen_ai.input.messages']).toContain('first prompt')
    expect(only(spans, 'execute_tool').attributes['gen_ai.tool.call.arguments']).toBeUndefined()
    for (const chat of spansNamed(spans, 'chat')) expect(chat.attributes['gen_ai.output.messages']).toBeUndefined()
  })

  it('a failed turn is an error span with the reason, and is counted as failed', async () => {
    const { memory, kernel } = await run([{ error: { message: 'the model is down', retryable: false } }])
    const outcome = await kernel.run('hello')
    expect(outcome.status).toBe('failed')
    await kernel.session.end()
    const turn = only(memory.spans(), 'invoke_agent')
    expect(turn.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining('the model is down') })
    expect(turn.attributes['harness.turn.status']).toBe('failed')
    expect(total((await memory.metrics()).get('harness.turns'), { 'harness.turn.status': 'failed' })).toBe(1)
  })

  it('spans still open at dispose are ended, so a session that never ended is exported', async () => {
    const { memory, kernel } = await run([{ text: 'hi' }])
    await kernel.run('hello')
    expect(spansNamed(memory.spans(), 'session')).toEqual([])
    await kernel.kernel.dispose()
    expect(only(memory.spans(), 'session').attributes['harness.session.end_reason']).toBe('dispose')
  })
})
