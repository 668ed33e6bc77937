import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { definePlugin, defineTool, type NoticePayload } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { startTestKernel, type TestKernel } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type TelemetryOptions, telemetry } from '../src/index.js'
import { type OtlpReceiver, type ReceivedSpan, startOtlpGrpcReceiver, startOtlpHttpReceiver } from './support/otlp-receiver.js'

const echo = definePlugin({
  name: 'echo-tool',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'echo',
        description: 'Echoes its text.',
        inputSchema: z.object({ text: z.string() }),
        async execute({ text }) {
          return { output: text, isError: false }
        },
      }),
    )
  },
})

const SCRIPT = [
  { tool_calls: [{ name: 'echo', input: { text: 'hi' }, id: 'call-1' }], usage: { inputTokens: 40, outputTokens: 4 } },
  { text: 'said hi', usage: { inputTokens: 60, outputTokens: 3 } },
]

/** Notices of the telemetry plugin, as they are told (a test waits for one instead of sleeping). */
function noticeSpy() {
  const seen: NoticePayload[] = []
  const waiters = new Set<() => void>()
  const plugin = definePlugin({
    name: 'notice-spy',
    setup(kernel) {
      kernel.hooks.notice.tap('notice-spy', (notice) => {
        if (notice.source !== 'telemetry') return
        seen.push(notice)
        for (const waiter of [...waiters]) waiter()
      })
    },
  })
  const next = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (seen.length < count) return
        waiters.delete(check)
        resolve()
      }
      waiters.add(check)
      check()
    })
  return { plugin, seen, next }
}

const receivers: OtlpReceiver[] = []
const kernels: TestKernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
  for (const receiver of receivers.splice(0)) await receiver.close()
})

async function kernelWith(options: TelemetryOptions, script: Parameters<typeof scriptedModel>[0]['script'] = SCRIPT) {
  const notices = noticeSpy()
  const plugin = telemetry(options)
  const kernel = await startTestKernel({ plugins: [scriptedModel({ script }), echo, plugin, notices.plugin] })
  kernels.push(kernel)
  return { kernel, plugin, notices }
}

/** The span tree as `parent > child` names, so one check shows the whole shape. */
function shape(spans: readonly ReceivedSpan[]): string[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]))
  return spans.map((span) => {
    const parent = byId.get(span.parentSpanId)
    return parent === undefined ? span.name : `${parent.name} > ${span.name}`
  })
}

describe('export over OTLP to a collector on loopback', () => {
  for (const [protocol, start] of [
    ['http/protobuf', startOtlpHttpReceiver],
    ['http/json', startOtlpHttpReceiver],
    ['grpc', startOtlpGrpcReceiver],
  ] as const) {
    it(`${protocol}: the official exporter's spans and metrics decode, with the resource, headers and parents as sent`, async () => {
      const receiver = await start()
      receivers.push(receiver)
      const { kernel } = await kernelWith({
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=s%3Dcret',
          OTEL_SERVICE_NAME: 'agent-ci',
          OTEL_RESOURCE_ATTRIBUTES: 'team=agents,deployment.environment.name=test',
        },
      })
      expect((await kernel.run('say hi')).status).toBe('completed')
      await kernel.session.end()
      // Dispose flushes: what was queued is at the collector when it resolves.
      await kernel.kernel.dispose()

      expect(shape(receiver.spans).sort()).toEqual(
        [
          'session',
          'session > invoke_agent harness',
          'invoke_agent harness > chat',
          'invoke_agent harness > chat',
          'invoke_agent harness > execute_tool echo',
        ].sort(),
      )
      expect(new Set(receiver.spans.map((span) => span.traceId)).size).toBe(1)
      const session = receiver.spans.find((span) => span.name === 'session')!
      expect(session.resource).toMatchObject({
        'service.name': 'agent-ci',
        team: 'agents',
        'deployment.environment.name': 'test',
        'telemetry.sdk.language': 'nodejs',
      })
      expect(session.scope).toBe('@harness-kernel/telemetry')
      expect(session.attributes['harness.session.id']).toBe(kernel.session.id)
      const chats = receiver.spans.filter((span) => span.name === 'chat').sort((a, b) => a.startMs - b.startMs)
      expect(chats.map((chat) => [chat.attributes['gen_ai.usage.input_tokens'], chat.attributes['gen_ai.usage.output_tokens']])).toEqual([
        [40, 4],
        [60, 3],
      ])
      expect(receiver.requests.every((request) => request.headers['x-collector-token'] === 's=cret')).toBe(true)
      if (protocol !== 'grpc') {
        const types = new Set(receiver.requests.map((request) => request.contentType))
        expect([...types]).toEqual([protocol === 'http/json' ? 'application/json' : 'application/x-protobuf'])
      }
      const tokens = receiver.points.filter((point) => point.metric === 'gen_ai.client.token.usage')
      expect(tokens.find((point) => point.attributes['gen_ai.token.type'] === 'input')).toMatchObject({
        value: 100,
        count: 2,
        unit: '{token}',
      })
      expect(tokens.find((point) => point.attributes['gen_ai.token.type'] === 'output')).toMatchObject({ value: 7, count: 2 })
      const tools = receiver.points.filter((point) => point.metric === 'harness.tool.calls')
      expect(tools).toEqual([
        expect.objectContaining({ value: 1, attributes: { 'gen_ai.tool.name': 'echo', 'harness.tool.outcome': 'ok' } }),
      ])
    })
  }

  it("Codex's [otel] block: its trace_exporter endpoint (the signal's own URL), protocol, headers, environment and log_user_prompt", async () => {
    const receiver = await startOtlpHttpReceiver()
    receivers.push(receiver)
    const { kernel } = await kernelWith({
      env: {},
      codexOtel: {
        source: '/home/user/.codex/config.toml',
        table: {
          environment: 'staging',
          log_user_prompt: true,
          trace_exporter: { 'otlp-http': { endpoint: `${receiver.url}/v1/traces`, protocol: 'json', headers: { 'x-otlp-api-key': 'k1' } } },
          span_attributes: { 'team.name': 'kernel' },
        },
      },
    })
    await kernel.run('the prompt text')
    await kernel.session.end()
    await kernel.kernel.dispose()
    expect(receiver.requests.map((request) => [request.path, request.contentType, request.headers['x-otlp-api-key']])).toEqual([
      ['/v1/traces', 'application/json', 'k1'],
    ])
    const turn = receiver.spans.find((span) => span.name === 'invoke_agent harness')!
    expect(turn.resource['deployment.environment.name']).toBe('staging')
    expect(turn.attributes['team.name']).toBe('kernel')
    expect(turn.attributes['gen_ai.input.messages']).toContain('the prompt text')
    // `metrics_exporter` unset: Codex's default is its own sink (statsig); no metrics are sent anywhere here.
    expect(receiver.points).toEqual([])
  })

  it('an unreachable collector: turns complete, lost spans are counted, and one notice says so', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const { kernel, plugin, notices } = await kernelWith(
      {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_TIMEOUT: '300',
          OTEL_BSP_SCHEDULE_DELAY: '1',
          OTEL_METRICS_EXPORTER: 'none',
        },
        shutdownTimeoutMs: 1000,
      },
      [...SCRIPT, ...SCRIPT],
    )
    expect((await kernel.run('first')).status).toBe('completed')
    await notices.next(1)
    const afterFirst = plugin.exportStats().spansDropped
    expect(afterFirst).toBeGreaterThan(0)
    expect(notices.seen[0]).toMatchObject({
      level: 'warning',
      text: expect.stringContaining(`could not be exported to http://127.0.0.1:${port}/v1/traces`),
    })
    expect((await kernel.run('second')).status).toBe('completed')
    await kernel.session.end()
    await kernel.kernel.dispose()
    expect(plugin.exportStats().spansDropped).toBeGreaterThan(afterFirst)
    expect(notices.seen).toHaveLength(1)
  })

  it('steps faster than the export: the export thread waits for room in the span queue, and no span is dropped', async () => {
    const receiver = await startOtlpHttpReceiver()
    receivers.push(receiver)
    const steps = 40
    // With usage, as a model reports it: a model call's span ends with its step (without, it waits for the turn's end).
    const usage = { inputTokens: 10, outputTokens: 2 }
    const script = [
      ...Array.from({ length: steps - 1 }, (_, index) => ({ tool_calls: [{ name: 'echo', input: { text: `${index}` } }], usage })),
      { text: 'done', usage },
    ]
    // A queue of 16 against 80 spans that all exist before the first export answers (the turn ends long before).
    const { kernel, plugin } = await kernelWith(
      {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_BSP_MAX_QUEUE_SIZE: '16',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '8',
          OTEL_METRICS_EXPORTER: 'none',
        },
      },
      script,
    )
    expect((await kernel.run('go')).status).toBe('completed')
    await kernel.session.end()
    await kernel.kernel.dispose()
    expect(plugin.exportStats()).toEqual({ spansDropped: 0, metricExportsFailed: 0, eventsDropped: 0 })
    expect(receiver.spans.filter((span) => span.name === 'execute_tool echo')).toHaveLength(steps - 1)
    expect(receiver.spans).toHaveLength(2 * steps + 1)
  })

  it('a collector that refuses: the export fails and is counted, never retried into the turn', async () => {
    const receiver = await startOtlpHttpReceiver({ status: 400 })
    receivers.push(receiver)
    const { kernel, plugin, notices } = await kernelWith({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '1' },
    })
    expect((await kernel.run('hello')).status).toBe('completed')
    await notices.next(1)
    expect(notices.seen[0]!.text).toMatch(/telemetry: \d+ spans? could not be exported/)
    expect(plugin.exportStats().spansDropped).toBeGreaterThan(0)
  })

  it('a collector that never answers: turns do not wait for it, and what is not exported within the dispose timeout is counted', async () => {
    const receiver = await startOtlpHttpReceiver({ answer: false })
    receivers.push(receiver)
    const { kernel, plugin } = await kernelWith(
      {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_BSP_MAX_QUEUE_SIZE: '1',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
          OTEL_METRICS_EXPORTER: 'none',
        },
        shutdownTimeoutMs: 200,
      },
      [...SCRIPT, ...SCRIPT],
    )
    // The first model call's span is sent and hangs; the export thread waits for room for the rest, the turns do not.
    expect((await kernel.run('hello')).status).toBe('completed')
    expect((await kernel.run('again')).status).toBe('completed')
    await kernel.session.end()
    await kernel.kernel.dispose()
    // Two turns of a model call, a tool call and another model call, and the session: none reached the collector.
    expect(plugin.exportStats()).toEqual({ spansDropped: 9, metricExportsFailed: 0, eventsDropped: 0 })
  })

  for (const [variable, value, expected] of [
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'thrift', 'OTEL_EXPORTER_OTLP_PROTOCOL: expected one of http/protobuf, http/json, grpc, got "thrift"'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'localhost:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http:// or https:// URL'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'Authorization Bearer abc', "OTEL_EXPORTER_OTLP_HEADERS: entry 1 of 1 has no '='"],
    ['OTEL_RESOURCE_ATTRIBUTES', 'team=%zz', 'OTEL_RESOURCE_ATTRIBUTES: entry 1 of 1 is not valid percent-encoding'],
    ['OTEL_TRACES_EXPORTER', 'zipkin', 'OTEL_TRACES_EXPORTER: the harness exports with otlp (or none), not "zipkin"'],
  ] as const) {
    it(`a malformed ${variable}: a notice naming it, telemetry off, the turn runs`, async () => {
      const receiver = await startOtlpHttpReceiver()
      receivers.push(receiver)
      const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, [variable]: value }
      const { kernel, notices } = await kernelWith({ env })
      expect((await kernel.run('hello')).status).toBe('completed')
      await kernel.session.end()
      await kernel.kernel.dispose()
      expect(notices.seen.map((notice) => [notice.level, notice.text])).toEqual([['warning', expect.stringContaining(expected)]])
      expect(notices.seen[0]!.text).toMatch(/^telemetry is off: /)
      expect(notices.seen[0]!.text).not.toContain('abc')
      expect(receiver.requests).toEqual([])
    })
  }

  it('a malformed Codex [otel] block is named with its file; with OTEL_* set, it is passed over with a warning', async () => {
    const receiver = await startOtlpHttpReceiver()
    receivers.push(receiver)
    const codexOtel = { source: '/home/user/.codex/config.toml', table: { trace_exporter: { 'otlp-http': { endpoint: receiver.url } } } }
    const alone = await kernelWith({ env: {}, codexOtel })
    await alone.kernel.run('hello')
    await alone.kernel.kernel.dispose()
    expect(alone.notices.seen.map((notice) => notice.text)).toEqual([
      'telemetry is off: [otel] trace_exporter.otlp-http.protocol in /home/user/.codex/config.toml: expected "binary" or "json"',
    ])
    expect(receiver.requests).toEqual([])

    const both = await kernelWith({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_METRICS_EXPORTER: 'none' }, codexOtel })
    await both.kernel.run('hello')
    await both.kernel.kernel.dispose()
    expect(both.notices.seen.map((notice) => notice.text)).toEqual([
      expect.stringMatching(/^telemetry: Codex's \[otel\] block is not used: \[otel\] trace_exporter/),
    ])
    expect(receiver.spans.length).toBeGreaterThan(0)
  })

  it('OTEL_SDK_DISABLED=true turns it off whatever else is set', async () => {
    const receiver = await startOtlpHttpReceiver()
    receivers.push(receiver)
    const { kernel, notices } = await kernelWith({ env: { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } })
    await kernel.run('hello')
    await kernel.kernel.dispose()
    expect(notices.seen.map((notice) => [notice.level, notice.text])).toEqual([['info', 'telemetry is off: OTEL_SDK_DISABLED=true']])
    expect(receiver.requests).toEqual([])
  })
})
