import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, toolDirective } from '../../../drivers/claude-code/test/support/driver-harness.js'
import { telemetry } from '../src/index.js'
import { inMemoryTelemetry, only, parentOf, spansNamed } from './support/in-memory-telemetry.js'
import { type OtlpReceiver, startOtlpHttpReceiver } from './support/otlp-receiver.js'

let harness: DriverHarness | undefined
let receiver: OtlpReceiver | undefined
afterEach(async () => {
  await harness?.dispose()
  await receiver?.close()
  harness = undefined
  receiver = undefined
})

const PROMPT = `Run it ${toolDirective('shell', { command: 'echo from-kernel-tool' })}`

describe('telemetry on the Claude Code driver (the real Claude Code, a fake Messages API)', () => {
  it('the same shape as the native loop: the turn, each of Claude Code’s model calls with its usage and model, the kernel tool', async () => {
    const memory = inMemoryTelemetry()
    harness = await driverHarness({ plugins: [telemetry({ env: {}, tracerProvider: memory.tracerProvider })] })
    const session = await harness.kernel.startSession()
    expect((await session.run(PROMPT)).status).toBe('completed')
    await session.end()
    const spans = memory.spans()
    const root = only(spans, 'session')
    expect(root.attributes['harness.driver']).toBe('claude-code')
    expect(root.attributes['harness.driver.native_session_id']).toEqual(expect.any(String))
    const turn = only(spans, 'invoke_agent')
    expect(parentOf(turn, spans)).toBe(root)
    expect(turn.attributes['gen_ai.provider.name']).toBe('anthropic')
    const chats = spansNamed(spans, 'chat')
    expect(chats.length).toBe(2)
    for (const chat of chats) {
      expect(parentOf(chat, spans)).toBe(turn)
      expect(chat.attributes['gen_ai.provider.name']).toBe('anthropic')
      expect(chat.attributes['gen_ai.response.model']).toMatch(/^claude-/)
      expect(chat.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number))
    }
    const tool = only(spans, 'execute_tool')
    expect(tool.name).toBe('execute_tool shell')
    expect(tool.attributes).toMatchObject({ 'harness.tool.decision': 'allow', 'harness.tool.outcome': 'ok', 'harness.step': 1 })
    expect(parentOf(tool, spans)).toBe(turn)
  })

  it("forwards Claude Code's own telemetry to the same collector, its spans under the session's span", async () => {
    receiver = await startOtlpHttpReceiver()
    const plugin = telemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } })
    harness = await driverHarness({ plugins: [plugin], driver: { environment: plugin.claudeCodeEnvironment } })
    const session = await harness.kernel.startSession()
    expect((await session.run(PROMPT)).status).toBe('completed')
    await session.end()
    await harness.kernel.dispose()
    const ours = receiver.spans.find((span) => span.name === 'session')!
    expect(ours.resource['service.name']).toBe('harness')
    // Claude Code exports when its process ends (the session's end); its spans carry its own service name.
    await receiver.until((received) => received.spans.some((span) => span.resource['service.name'] === 'claude-code'))
    const theirs = receiver.spans.filter((span) => span.resource['service.name'] === 'claude-code')
    const interaction = theirs.find((span) => span.name === 'claude_code.interaction')!
    expect(interaction.traceId).toBe(ours.traceId)
    expect(interaction.parentSpanId).toBe(ours.spanId)
  })
})
