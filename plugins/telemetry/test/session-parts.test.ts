import { definePlugin, defineTool, type Plugin, type Session } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { subagents } from '@harness-kernel/subagents'
import { startTestKernel, type TestKernel } from '@harness-kernel/testing'
import { SpanStatusCode } from '@opentelemetry/api'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { telemetry } from '../src/index.js'
import { inMemoryTelemetry, ms, only, parentOf, spansNamed, total } from './support/in-memory-telemetry.js'

const kernels: TestKernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
})

async function start(plugins: Plugin[]) {
  const memory = inMemoryTelemetry()
  const plugin = telemetry({ env: {}, tracerProvider: memory.tracerProvider, meterProvider: memory.meterProvider })
  const kernel = await startTestKernel({ plugins: [...plugins, plugin] })
  kernels.push(kernel)
  return { memory, kernel }
}

/** A tool whose run does what the test needs inside a step (steer, record what a driver would record late). */
function toolDoing(name: string, run: (context: { session: Session }) => void) {
  return definePlugin({
    name: `tool-${name}`,
    setup(kernel) {
      kernel.registerTool(
        defineTool({
          name,
          description: name,
          inputSchema: z.object({}),
          async execute(_input, context) {
            run(context)
            return { output: 'done', isError: false }
          },
        }),
      )
    },
  })
}

describe('what a session holds besides model and tool calls', () => {
  it("a subagent's session is a child of the tool call that started it, in its parent's trace", async () => {
    const { memory, kernel } = await start([
      scriptedModel({
        script: [
          { tool_calls: [{ name: 'Agent', input: { description: 'look around', prompt: 'list the files' }, id: 'agent-call' }] },
          { text: 'three files' },
          { text: 'the subagent found three files' },
        ],
      }),
      subagents({ tools: 'claude-code' }),
    ])
    expect((await kernel.run('delegate')).status).toBe('completed')
    await kernel.session.end()
    const spans = memory.spans()
    const tool = only(spans, 'execute_tool')
    expect(tool.name).toBe('execute_tool Agent')
    expect(tool.attributes).toMatchObject({ 'harness.subagent.type': 'general-purpose', 'harness.subagent.session_id': expect.any(String) })
    const child = only(spans, 'subagent')
    expect(child.name).toBe('subagent general-purpose')
    expect(parentOf(child, spans)).toBe(tool)
    expect(child.spanContext().traceId).toBe(tool.spanContext().traceId)
    expect(child.attributes['harness.session.id']).toBe(tool.attributes['harness.subagent.session_id'])
    const childTurn = spansNamed(spans, 'invoke_agent').find((span) => parentOf(span, spans) === child)!
    expect(childTurn.name).toBe('invoke_agent general-purpose')
    expect(spansNamed(spans, 'chat').filter((chat) => parentOf(chat, spans) === childTurn)).toHaveLength(1)
  })

  it('a hook run is a span under the tool call it ran for, placed by its duration, with its outcome', async () => {
    const dialect = definePlugin({
      name: 'fake-dialect',
      setup(kernel) {
        kernel.hooks.toolPreExecute.tap('fake-dialect', (decision, { session, turn, call }) => {
          session.recordHookRun({
            dialect: 'codex',
            id: `pre-tool-use:0:/hooks.json:${call.id}`,
            event: 'PreToolUse',
            key: 'project:/repo/.codex/hooks.json:PreToolUse:0',
            command: 'check --token=abc',
            status: 'failed',
            durationMs: 40,
            exitCode: 2,
            timedOut: false,
            turnId: turn.id,
            toolUseId: call.id,
          })
          return decision
        })
      },
    })
    const { memory, kernel } = await start([
      scriptedModel({ script: [{ tool_calls: [{ name: 'noop', input: {}, id: 'c1' }] }, { text: 'ok' }] }),
      toolDoing('noop', () => {}),
      dialect,
    ])
    await kernel.run('go')
    await kernel.session.end()
    const spans = memory.spans()
    const hook = only(spans, 'hook')
    expect(hook.name).toBe('hook PreToolUse')
    expect(parentOf(hook, spans)).toBe(only(spans, 'execute_tool'))
    expect(hook.attributes).toMatchObject({
      'harness.hook.dialect': 'codex',
      'harness.hook.event': 'PreToolUse',
      'harness.hook.handler': 'project:/repo/.codex/hooks.json:PreToolUse:0',
      'harness.hook.exit_code': 2,
      'harness.hook.timed_out': false,
    })
    expect(hook.attributes['harness.hook.command']).toBeUndefined()
    expect(hook.status.code).toBe(SpanStatusCode.ERROR)
    expect(ms(hook.endTime) - ms(hook.startTime)).toBeCloseTo(40, 0)
    const runs = (await memory.metrics()).get('harness.hook.runs')
    expect(total(runs, { 'harness.hook.event': 'PreToolUse', 'harness.hook.status': 'failed' })).toBe(1)
  })

  it('steering accepted at a boundary is a span and is counted', async () => {
    const { memory, kernel } = await start([
      scriptedModel({ script: [{ tool_calls: [{ name: 'steer', input: {} }] }, { text: 'ok' }] }),
      toolDoing('steer', ({ session }) => void session.steer('also this')),
    ])
    await kernel.run('go')
    await kernel.session.end()
    const spans = memory.spans()
    const steering = only(spans, 'steering')
    expect(steering.name).toBe('steering sampling')
    expect(steering.attributes).toMatchObject({
      'harness.steering.accepted': 1,
      'harness.steering.dropped': 0,
      'harness.steering.outcome': 'accepted',
    })
    expect(parentOf(steering, spans)).toBe(only(spans, 'invoke_agent'))
    const items = (await memory.metrics()).get('harness.steering.items')
    expect(total(items, { 'harness.steering.outcome': 'accepted', 'harness.steering.boundary': 'sampling' })).toBe(1)
  })

  it('steering claimed and given back unrecorded (the turn was interrupted) is a span and is counted as returned', async () => {
    const interrupter = definePlugin({
      name: 'interrupt-at-step-2',
      setup(kernel) {
        kernel.hooks.preStep.tap('interrupt-at-step-2', (decision, { session, step }) => {
          if (step === 2) session.interrupt('the user pressed stop')
          return decision
        })
      },
    })
    const { memory, kernel } = await start([
      scriptedModel({ script: [{ tool_calls: [{ name: 'steer', input: {} }] }, { text: 'never' }] }),
      toolDoing('steer', ({ session }) => void session.steer('also this').catch(() => {})),
      interrupter,
    ])
    expect((await kernel.run('go')).status).toBe('interrupted')
    await kernel.session.end()
    const spans = memory.spans()
    // Given back, it waited in the session's queue until the session ended, which dropped it.
    expect(spansNamed(spans, 'steering').map((span) => span.name)).toEqual(['steering sampling', 'steering dropped'])
    const steering = spansNamed(spans, 'steering sampling')[0]!
    expect(steering.attributes).toMatchObject({
      'harness.steering.items': 1,
      'harness.steering.outcome': 'returned',
      'harness.steering.reason': 'the turn was interrupted (the user pressed stop)',
    })
    const items = (await memory.metrics()).get('harness.steering.items')
    expect(total(items, { 'harness.steering.outcome': 'returned', 'harness.steering.boundary': 'sampling' })).toBe(1)
  })

  it('a usage recorded after its model call (as Codex reports it) completes that call’s span', async () => {
    const { memory, kernel } = await start([
      scriptedModel({
        script: [{ tool_calls: [{ name: 'report', input: {} }] }, { text: 'ok', usage: { inputTokens: 9, outputTokens: 1 } }],
      }),
      toolDoing('report', ({ session }) =>
        session.record({ type: 'usage', step: 1, usage: { inputTokens: 70, outputTokens: 7 }, model: 'gpt-test', costUsd: 0.002 }),
      ),
    ])
    await kernel.run('go')
    await kernel.session.end()
    const spans = memory.spans()
    const [first, second] = spansNamed(spans, 'chat')
    expect(first!.name).toBe('chat gpt-test')
    expect(first!.attributes).toMatchObject({ 'harness.step': 1, 'gen_ai.usage.input_tokens': 70, 'harness.cost.usd': 0.002 })
    expect(second!.attributes['gen_ai.usage.input_tokens']).toBe(9)
    expect(only(spans, 'invoke_agent').attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 79, 'gen_ai.usage.output_tokens': 8 })
    const metrics = await memory.metrics()
    expect(total(metrics.get('harness.cost'), {})).toBeCloseTo(0.002, 6)
  })

  it('a compaction is a span from agent/pre-compact to its event, with what its summary spent', async () => {
    const { memory, kernel } = await start([
      scriptedModel({ script: [{ text: 'first answer' }, { text: 'the summary', usage: { inputTokens: 900, outputTokens: 60 } }] }),
    ])
    await kernel.run('go')
    await kernel.session.compact()
    await kernel.session.end()
    const compaction = only(memory.spans(), 'compaction')
    expect(compaction.attributes).toMatchObject({
      'harness.compaction.trigger': 'manual',
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 60,
    })
    // Counted with the model calls' tokens, outside any turn.
    const tokens = (await memory.metrics()).get('gen_ai.client.token.usage')
    expect(total(tokens, { 'gen_ai.token.type': 'input' })).toBe(900)
    expect(compaction.attributes['harness.compaction.summary']).toBeUndefined()
    expect(ms(compaction.endTime)).toBeGreaterThan(ms(compaction.startTime))
  })
})
