import type { SessionEvent } from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, callDirective, codexHarness, readLog } from './support/driver-harness.js'
import { wireLog } from './support/wire.js'

let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const assistantMetas = (events: SessionEvent[]) =>
  events.flatMap((event) => (event.type === 'message' && event.message.role === 'assistant' ? [event.message.meta] : []))

describe('usage, cost and budgets inside the real Codex', () => {
  it('records each request’s usage in the kernel’s terms, with the model and its cost: late usage as a usage event', async () => {
    current = await codexHarness()
    current.server.reply(
      {
        toolCalls: [{ name: 'shell', input: { command: 'echo usage' } }],
        usage: { inputTokens: 1_200, cacheReadInputTokens: 1_000, outputTokens: 80, reasoningTokens: 30 },
      },
      { text: 'done', usage: { inputTokens: 1_400, outputTokens: 20 } },
    )
    const session = await current.kernel.startSession()
    expect((await session.run('Run it')).status).toBe('completed')
    const events = readLog(session.transcriptPath)
    // gpt-5.1-codex: input 1.25, cached input 0.125, output 10 USD per million tokens.
    expect(events.filter((event) => event.type === 'usage')).toEqual([
      expect.objectContaining({
        step: 1,
        usage: { inputTokens: 1_200, outputTokens: 80, cacheReadInputTokens: 1_000, reasoningTokens: 30 },
        model: 'gpt-5.1-codex',
        costUsd: expect.closeTo((200 * 1.25 + 1_000 * 0.125 + 80 * 10) / 1e6, 12),
      }),
    ])
    expect(assistantMetas(events)).toEqual([
      undefined,
      {
        usage: { inputTokens: 1_400, outputTokens: 20 },
        model: 'gpt-5.1-codex',
        costUsd: expect.closeTo((1_400 * 1.25 + 20 * 10) / 1e6, 12),
      },
    ])
    await session.end()
  })

  it('interrupts Codex’s turn at the step that reaches a budget; Codex and its thread serve the next turn', async () => {
    const wire = wireLog()
    current = await codexHarness({ driver: { onProtocolMessage: wire.onProtocolMessage } })
    current.server.reply({
      toolCalls: [{ name: 'shell', input: { command: 'echo spent' } }],
      usage: { inputTokens: 20_000, outputTokens: 480 },
    })
    const session = await current.kernel.startSession({ budgets: { turn: { maxTokens: 20_000 } } })
    const halted = await session.run(`Run it ${callDirective('shell', { command: 'echo spent' })}`)
    expect(halted).toMatchObject({ status: 'halted', reason: 'turn token budget of 20000 reached: 20480 used' })
    expect(wire.sent('turn/interrupt')).toHaveLength(1)
    const next = await session.run('And now?')
    expect(next.status).toBe('completed')
    expect(next.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    // The same process and thread: one initialize, one thread/start, no resume.
    expect(wire.sent('initialize')).toHaveLength(1)
    expect(wire.sent('thread/start')).toHaveLength(1)
    expect(wire.sent('thread/resume')).toHaveLength(0)
    await session.end()
  })
})
