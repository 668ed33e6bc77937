import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SpawnOptions } from '@anthropic-ai/claude-agent-sdk'
import type { SessionEvent } from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog } from './support/driver-harness.js'

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const assistantMetas = (events: SessionEvent[]) =>
  events.flatMap((event) => (event.type === 'message' && event.message.role === 'assistant' ? [event.message.meta] : []))
const usageEvents = (events: SessionEvent[]) => events.filter((event) => event.type === 'usage')
/** claude-sonnet-4-5's list prices, USD per million tokens: input 3, cache write 3.75, cache read 0.30, output 15. */
const sonnet = (input: number, cacheWrite: number, cacheRead: number, output: number) =>
  (input * 3 + cacheWrite * 3.75 + cacheRead * 0.3 + output * 15) / 1e6
const shellCall = (command: string) => ({ name: 'mcp__host__shell', input: { command } })

describe('usage, cost and budgets inside the real Claude Code', () => {
  it('records each step’s whole usage, the model and the cost; Claude Code’s own cost agrees, so nothing more is recorded', async () => {
    current = await driverHarness({ driver: { model: 'claude-sonnet-4-5' } })
    current.server.reply(
      {
        toolCalls: [shellCall('echo usage')],
        usage: { inputTokens: 5_000, cacheReadInputTokens: 3_000, cacheCreationInputTokens: 1_000, outputTokens: 200 },
      },
      { text: 'done', usage: { inputTokens: 6_000, cacheReadInputTokens: 5_000, outputTokens: 50 } },
    )
    const session = await current.kernel.startSession()
    expect((await session.run('Run it')).status).toBe('completed')
    const events = readLog(session.transcriptPath)
    // The output counts are message_delta's (Claude Code's own assistant messages say 1).
    expect(assistantMetas(events)).toEqual([
      {
        usage: { inputTokens: 5_000, outputTokens: 200, cacheReadInputTokens: 3_000, cacheCreationInputTokens: 1_000 },
        model: 'claude-sonnet-4-5',
        costUsd: expect.closeTo(sonnet(1_000, 1_000, 3_000, 200), 12),
      },
      {
        usage: { inputTokens: 6_000, outputTokens: 50, cacheReadInputTokens: 5_000 },
        model: 'claude-sonnet-4-5',
        costUsd: expect.closeTo(sonnet(1_000, 0, 5_000, 50), 12),
      },
    ])
    expect(usageEvents(events)).toEqual([])
    await session.end()
  })

  it('records Claude Code’s own cost of each turn, not its running total, where the kernel’s prices count less', async () => {
    current = await driverHarness({
      driver: { model: 'claude-sonnet-4-5' },
      kernel: { prices: { 'claude-sonnet-4-5': { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } },
    })
    current.server.reply(
      { text: 'one', usage: { inputTokens: 1_000, outputTokens: 100 } },
      { text: 'two', usage: { inputTokens: 2_000, outputTokens: 10 } },
    )
    const session = await current.kernel.startSession()
    await session.run('first')
    await session.run('second')
    const events = readLog(session.transcriptPath)
    const turns = events.filter((event) => event.type === 'turn/start').map((event) => event.turnId)
    expect(usageEvents(events)).toEqual([
      expect.objectContaining({ turnId: turns[0], costUsd: expect.closeTo(sonnet(1_000, 0, 0, 100), 12) }),
      expect.objectContaining({ turnId: turns[1], costUsd: expect.closeTo(sonnet(2_000, 0, 0, 10), 12) }),
    ])
    await session.end()
  })

  it('goes on from the running total a resumed Claude Code reports: the first turn after a resume counts only itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-cc-cost-'))
    const options = {
      dir,
      driver: { model: 'claude-sonnet-4-5' },
      kernel: { prices: { 'claude-sonnet-4-5': { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } },
    }
    try {
      current = await driverHarness(options)
      current.server.reply({ text: 'one', usage: { inputTokens: 1_000, outputTokens: 100 } })
      const first = await current.kernel.startSession()
      await first.run('first')
      await first.end()
      await current.dispose()
      current = await driverHarness(options)
      current.server.reply({ text: 'two', usage: { inputTokens: 4_000, outputTokens: 400 } })
      const resumed = await current.kernel.resumeSession(first.id)
      await resumed.run('second')
      const costs = usageEvents(readLog(resumed.transcriptPath)).map((event) => (event.type === 'usage' ? event.costUsd : undefined))
      expect(costs).toEqual([expect.closeTo(sonnet(1_000, 0, 0, 100), 12), expect.closeTo(sonnet(4_000, 0, 0, 400), 12)])
      await resumed.end()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('interrupts Claude Code’s turn at the step that reaches a budget; the same process serves the next turn', async () => {
    let spawned = 0
    const spawnClaudeCodeProcess = (options: SpawnOptions) => {
      spawned++
      return spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
    }
    current = await driverHarness({ driver: { model: 'claude-sonnet-4-5', queryOptions: { spawnClaudeCodeProcess } } })
    current.server.reply({ toolCalls: [shellCall('echo spent')], usage: { inputTokens: 20_000, outputTokens: 480 } })
    const session = await current.kernel.startSession({ budgets: { turn: { maxTokens: 20_000 } } })
    const halted = await session.run('Run it')
    expect(halted).toMatchObject({ status: 'halted', reason: 'turn token budget of 20000 reached: 20480 used' })
    const next = await session.run('And now?')
    expect(next.status).toBe('completed')
    expect(next.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    expect(spawned).toBe(1)
    await session.end()
  })

  it('halts a turn whose answer reached the session budget, and the next one at its start without a model call', async () => {
    current = await driverHarness({ driver: { model: 'claude-sonnet-4-5' } })
    current.server.reply({ text: 'pricey', usage: { inputTokens: 100_000, outputTokens: 10_000 } })
    const session = await current.kernel.startSession({ budgets: { session: { maxCostUsd: 0.25 } } })
    const first = await session.run('go')
    expect(first).toMatchObject({
      status: 'halted',
      reason: 'session cost budget of $0.25 reached: $0.45 used',
      lastAssistantMessage: 'pricey',
    })
    const requests = current.server.requests.length
    expect(await session.run('more')).toMatchObject({ status: 'halted', reason: 'session cost budget of $0.25 reached: $0.45 used' })
    expect(current.server.requests).toHaveLength(requests)
    await session.end()
  })
})
