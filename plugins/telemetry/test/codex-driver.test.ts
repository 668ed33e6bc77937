import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, callDirective, codexHarness, readLog } from '../../../drivers/codex/test/support/driver-harness.js'
import { telemetry } from '../src/index.js'
import { inMemoryTelemetry, only, parentOf, spansNamed, total } from './support/in-memory-telemetry.js'

let harness: CodexHarness | undefined
afterEach(async () => {
  await harness?.dispose()
  harness = undefined
})

describe('telemetry on the Codex driver (the real codex app-server, a fake Responses API)', () => {
  it('the same shape: the turn, each model call with the usage Codex reported for it, the kernel tool', async () => {
    const memory = inMemoryTelemetry()
    harness = await codexHarness({
      plugins: [telemetry({ env: {}, tracerProvider: memory.tracerProvider, meterProvider: memory.meterProvider })],
    })
    const session = await harness.kernel.startSession()
    expect((await session.run(`Run it ${callDirective('shell', { command: 'echo from-kernel-tool' })}`)).status).toBe('completed')
    await session.end()
    const spans = memory.spans()
    const root = only(spans, 'session')
    expect(root.attributes['harness.driver']).toBe('codex')
    const turn = only(spans, 'invoke_agent')
    expect(parentOf(turn, spans)).toBe(root)
    expect(turn.attributes['gen_ai.provider.name']).toBe('openai')
    const tool = only(spans, 'execute_tool')
    expect(tool.name).toBe('execute_tool shell')
    expect(tool.attributes).toMatchObject({ 'harness.tool.outcome': 'ok', 'harness.tool.decision': 'allow' })
    expect(parentOf(tool, spans)).toBe(turn)

    // What the log says each request used, whether it came with the message or after it (a `usage` event).
    const log = readLog(session.transcriptPath)
    const reported = log.flatMap((event) => {
      if (event.type === 'usage' && event.usage) return [event.usage]
      if (event.type === 'message' && event.message.role === 'assistant' && event.message.meta?.usage) {
        return [event.message.meta.usage as { inputTokens?: number; outputTokens?: number }]
      }
      return []
    })
    expect(reported.length).toBeGreaterThan(0)
    const chats = spansNamed(spans, 'chat')
    expect(chats.length).toBeGreaterThanOrEqual(reported.length)
    for (const chat of chats) expect(parentOf(chat, spans)).toBe(turn)
    const inputs = chats.map((chat) => chat.attributes['gen_ai.usage.input_tokens']).filter((value) => value !== undefined)
    expect(inputs).toEqual(reported.map((usage) => usage.inputTokens))
    const sum = reported.reduce((all, usage) => all + (usage.inputTokens ?? 0), 0)
    expect(turn.attributes['gen_ai.usage.input_tokens']).toBe(sum)
    expect(total((await memory.metrics()).get('gen_ai.client.token.usage'), { 'gen_ai.token.type': 'input' })).toBe(sum)
  })
})
