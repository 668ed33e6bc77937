import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  type BudgetPayload,
  createKernel,
  type Driver,
  type KernelOptions,
  type ModelProvider,
  type ModelResponse,
  type Plugin,
  type SessionEvent,
  useDriver,
} from '../src/index.js'
import { echoTool, plugin, tempDir } from './helpers.js'

/** A model that answers from a list and counts its calls. */
function listModel(answers: ModelResponse[]): ModelProvider & { calls: number } {
  const model = {
    id: 'list',
    calls: 0,
    async generate() {
      const answer = answers[model.calls++]
      if (answer === undefined) throw new Error('no answer left')
      return answer
    },
  }
  return model
}

const text = (value: string, usage: ModelResponse['usage'], model = 'claude-sonnet-4-5-20250929'): ModelResponse => ({
  content: [{ type: 'text', text: value }],
  ...(usage ? { usage } : {}),
  model,
})
const echoCall = (id: string, usage: ModelResponse['usage']): ModelResponse => ({
  content: [{ type: 'tool_call', id, name: 'echo', input: { text: id } }],
  ...(usage ? { usage } : {}),
  model: 'claude-sonnet-4-5-20250929',
})

function harness(model: ModelProvider, options: KernelOptions = {}, more: Plugin[] = []) {
  const ran: string[] = []
  const plugins = [
    plugin('model', (kernel) => kernel.provide('model', model)),
    plugin('echo', (kernel) => kernel.registerTool(echoTool((value) => ran.push(value)))),
    ...more,
  ]
  return { kernel: createKernel(plugins, { cwd: tempDir(), ...options }), ran }
}

const eventsOf = (path: string): SessionEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SessionEvent)

describe('usage and cost of a step', () => {
  it('records the usage, the model and its cost on the step’s assistant message', async () => {
    const usage = { inputTokens: 1_000, outputTokens: 200, cacheReadInputTokens: 400 }
    const { kernel } = harness(listModel([text('hi', usage)]))
    const session = await kernel.startSession()
    await session.run('go')
    const assistant = eventsOf(session.transcriptPath).find((event) => event.type === 'message' && event.message.role === 'assistant')
    expect(assistant).toMatchObject({
      message: { meta: { usage, model: 'claude-sonnet-4-5-20250929', costUsd: (600 * 3 + 400 * 0.3 + 200 * 15) / 1e6 } },
    })
    await kernel.dispose()
  })

  it('prices with the prices option, and says once that a model has no price when a cost budget is set', async () => {
    const model = listModel([
      text('a', { inputTokens: 10, outputTokens: 1 }, 'house-model'),
      text('b', { inputTokens: 10, outputTokens: 1 }, 'gpt-9'),
    ])
    const { kernel } = harness(model, {
      prices: { 'house-model': { input: 1_000_000, output: 0 } },
      budgets: { session: { maxCostUsd: 100 } },
    })
    const session = await kernel.startSession()
    await session.run('one')
    await session.run('two')
    const events = eventsOf(session.transcriptPath)
    const metas = events.flatMap((event) => (event.type === 'message' && event.message.role === 'assistant' ? [event.message.meta] : []))
    expect(metas.map((meta) => meta?.costUsd)).toEqual([10, undefined])
    const notices = events.filter((event) => event.type === 'notice' && event.text.includes('no price'))
    expect(notices).toEqual([
      expect.objectContaining({
        text: 'no price for model "gpt-9": its usage counts toward token budgets only (add it to the prices option to count its cost)',
      }),
    ])
    await kernel.dispose()
  })
})

describe('budgets', () => {
  it('halts the turn at the step that reaches the turn token budget, runs none of its calls, and the next turn starts afresh', async () => {
    const model = listModel([
      echoCall('c1', { inputTokens: 20_000, outputTokens: 480 }),
      text('done', { inputTokens: 50, outputTokens: 5 }),
    ])
    const { kernel, ran } = harness(model, { budgets: { turn: { maxTokens: 20_000 } } })
    const session = await kernel.startSession()
    const first = await session.run('go')
    expect(first).toMatchObject({ status: 'halted', reason: 'turn token budget of 20000 reached: 20480 used' })
    expect(ran).toEqual([])
    expect(model.calls).toBe(1)
    const events = eventsOf(session.transcriptPath)
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool/result',
        callId: 'c1',
        isError: true,
        output: 'Not run: turn token budget of 20000 reached: 20480 used.',
      }),
    )
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn/end', status: 'halted', reason: first.reason }))
    expect((await session.run('again')).status).toBe('completed')
    await kernel.dispose()
  })

  it('halts at the step that reaches the session budget, then each new turn at its start, after a resume too', async () => {
    const model = listModel([text('one', { inputTokens: 500, outputTokens: 100 }), text('two', { inputTokens: 500, outputTokens: 100 })])
    const cwd = tempDir()
    const budgets = { session: { maxTokens: 1_000 } }
    const { kernel } = harness(model, { cwd, budgets })
    const session = await kernel.startSession()
    expect((await session.run('one')).status).toBe('completed')
    expect(await session.run('two')).toMatchObject({ status: 'halted', reason: 'session token budget of 1000 reached: 1200 used' })
    const third = await session.run('three')
    expect(third).toMatchObject({ status: 'halted', reason: 'session token budget of 1000 reached: 1200 used', messages: [] })
    expect(model.calls).toBe(2)
    await session.end()
    await kernel.dispose()

    // The spend is the log's: a resumed session is over its budget as well.
    const again = harness(listModel([]), { cwd, budgets })
    const resumed = await again.kernel.resumeSession(session.id)
    expect((await resumed.run('four')).reason).toBe('session token budget of 1000 reached: 1200 used')
    // Its own limits, given when it resumes, replace the kernel's.
    await resumed.end()
    const wider = await again.kernel.resumeSession(session.id, { budgets: { session: { maxTokens: 5_000 } } })
    await expect(wider.run('five')).resolves.toMatchObject({ status: 'failed', error: 'no answer left' })
    await again.kernel.dispose()
  })

  it('counts a compaction’s summary call: a priced usage event for it, spent against the session budget', async () => {
    const model = listModel([
      text('one', { inputTokens: 100, outputTokens: 10 }),
      text('the summary', { inputTokens: 2_000, outputTokens: 300 }),
    ])
    const { kernel } = harness(model, { budgets: { session: { maxTokens: 2_000 } } })
    const session = await kernel.startSession()
    expect((await session.run('one')).status).toBe('completed')
    expect(await session.compact()).toMatchObject({ status: 'compacted', summary: 'the summary' })
    const spent = eventsOf(session.transcriptPath).filter((event) => event.type === 'usage')
    expect(spent).toEqual([
      expect.objectContaining({
        purpose: 'compaction',
        usage: { inputTokens: 2_000, outputTokens: 300 },
        model: 'claude-sonnet-4-5-20250929',
        costUsd: (2_000 * 3 + 300 * 15) / 1e6,
      }),
    ])
    expect(spent[0]).not.toHaveProperty('turnId')
    expect(await session.run('two')).toMatchObject({ status: 'halted', reason: 'session token budget of 2000 reached: 2410 used' })
    expect(model.calls).toBe(2)
    await kernel.dispose()
  })

  it('halts on cost as priced, naming the amounts in USD', async () => {
    // 100,000 input and 10,000 output tokens of claude-sonnet-4-5: $0.30 + $0.15.
    const { kernel } = harness(listModel([text('x', { inputTokens: 100_000, outputTokens: 10_000 })]), {
      budgets: { session: { maxCostUsd: 0.25 } },
    })
    const session = await kernel.startSession()
    expect((await session.run('go')).reason).toBe('session cost budget of $0.25 reached: $0.45 used')
    await kernel.dispose()
  })

  it('goes on when an agent/budget-reached tap raises the limit above what is used, and tells it what was reached', async () => {
    const seen: BudgetPayload['budget'][] = []
    const raiser = plugin('raiser', (kernel) => {
      kernel.hooks.budgetReached.tap('raise', (_decision, { budget }) => {
        seen.push(budget)
        return seen.length === 1 ? { kind: 'raise', limit: budget.used + 100 } : { kind: 'raise', limit: budget.used }
      })
    })
    const model = listModel([echoCall('c1', { inputTokens: 90, outputTokens: 20 }), echoCall('c2', { inputTokens: 90, outputTokens: 20 })])
    const { kernel, ran } = harness(model, { budgets: { turn: { maxTokens: 100 } } }, [raiser])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(seen).toEqual([
      { sessionId: session.id, scope: 'turn', kind: 'tokens', limit: 100, used: 110 },
      { sessionId: session.id, scope: 'turn', kind: 'tokens', limit: 210, used: 220 },
    ])
    expect(ran).toEqual(['c1'])
    expect(result.reason).toBe('turn token budget of 210 reached: 220 used (a raise to 220 does not cover what is used)')
    const notices = eventsOf(session.transcriptPath).filter((event) => event.type === 'notice' && event.level === 'info')
    expect(notices).toContainEqual(expect.objectContaining({ text: 'turn token budget raised from 100 to 210' }))
    await kernel.dispose()
  })

  it('takes a halt with a reason of a tap’s own, and asks no later tap', async () => {
    let later = 0
    const taps = plugin('taps', (kernel) => {
      kernel.hooks.budgetReached.tap('stop', () => ({ kind: 'halt', reason: 'out of credit' }))
      kernel.hooks.budgetReached.tap('late', () => {
        later++
        return { kind: 'raise', limit: 1e9 }
      })
    })
    const { kernel } = harness(listModel([text('x', { inputTokens: 10, outputTokens: 1 })]), { budgets: { turn: { maxTokens: 5 } } }, [
      taps,
    ])
    const session = await kernel.startSession()
    expect((await session.run('go')).reason).toBe('out of credit')
    expect(later).toBe(0)
    await kernel.dispose()
  })

  it('counts a subagent’s usage toward its parent’s session budget, and halts the subagent on it', async () => {
    const model = listModel([text('child', { inputTokens: 120, outputTokens: 30 })])
    const { kernel } = harness(model)
    const parent = await kernel.startSession({ budgets: { session: { maxTokens: 100 } } })
    const child = await kernel.startSubagent({ parent, agent: { type: 'worker' } })
    expect(await child.run('work')).toMatchObject({ status: 'halted', reason: "parent session's token budget of 100 reached: 150 used" })
    expect(await parent.run('next')).toMatchObject({ status: 'halted', reason: 'session token budget of 100 reached: 150 used' })
    expect(model.calls).toBe(1)
    await kernel.dispose()
  })

  it('keeps a subagent’s spend in its parent’s log at its end, so the resumed parent still counts it, once', async () => {
    const cwd = tempDir()
    const budgets = { session: { maxTokens: 1_000 } }
    const first = harness(
      listModel([text('child', { inputTokens: 300, outputTokens: 50 }), text('parent', { inputTokens: 200, outputTokens: 20 })]),
      { cwd, budgets },
    )
    const parent = await first.kernel.startSession()
    const child = await first.kernel.startSubagent({ parent, agent: { type: 'worker' } })
    expect((await child.run('work')).status).toBe('completed')
    await child.end()
    expect((await parent.run('go on')).status).toBe('completed')
    await parent.end()
    await first.kernel.dispose()
    expect(eventsOf(parent.transcriptPath).filter((event) => event.type === 'subagent/end')).toEqual([
      expect.objectContaining({
        sessionId: child.id,
        agentId: child.id,
        reason: 'other',
        spent: { tokens: 350, costUsd: expect.any(Number) },
      }),
    ])

    // 570 spent in all (the subagent's 350 kept by the parent's log): 500 more reach the budget of 1,000.
    const again = harness(listModel([text('more', { inputTokens: 400, outputTokens: 100 })]), { cwd, budgets })
    const resumed = await again.kernel.resumeSession(parent.id)
    expect(await resumed.run('more')).toMatchObject({ status: 'halted', reason: 'session token budget of 1000 reached: 1070 used' })
    await again.kernel.dispose()
  })

  it('prices and counts a step’s usage a driver records late, and halts through the driver', async () => {
    const ends: string[] = []
    const driver: Driver = {
      specificationVersion: 'v1',
      id: 'late-usage',
      capabilities: {
        points: { 'agent/pre-step': 'decides' },
        boundaries: [],
        finalInputContinuesTurn: false,
        toolHosting: 'dynamic-tools',
        resume: 'native-id',
        model: 'own',
      },
      async open() {
        return {
          async runTurn({ input }, host) {
            const entry = await host.enter({ step: 1, messages: input })
            entry.record()
            host.recordMessage({ role: 'assistant', content: [{ type: 'text', text: 'answer' }], source: { kind: 'model' } })
            host.recordUsage({ step: 1, usage: { inputTokens: 300_000, outputTokens: 0 }, model: 'claude-haiku-4-5' })
            const halt = await host.checkBudget(1)
            ends.push(`own cost ${host.turnCostUsd}`)
            return halt ? { status: 'halted', reason: halt.reason } : { status: 'completed' }
          },
          async close() {},
        }
      },
    }
    const kernel = createKernel([useDriver(driver)], { cwd: tempDir(), budgets: { turn: { maxCostUsd: 0.25 } } })
    const session = await kernel.startSession()
    expect((await session.run('go')).reason).toBe('turn cost budget of $0.25 reached: $0.30 used')
    expect(ends).toEqual(['own cost 0.3'])
    expect(eventsOf(session.transcriptPath)).toContainEqual(
      expect.objectContaining({ type: 'usage', step: 1, model: 'claude-haiku-4-5', costUsd: 0.3 }),
    )
    await kernel.dispose()
  })

  it('refuses a limit that is not a positive number, naming it', async () => {
    expect(() => createKernel([], { cwd: tempDir(), budgets: { turn: { maxTokens: 0 } } })).toThrow(
      'budgets.turn.maxTokens must be a whole number > 0, got 0',
    )
    const kernel = createKernel([plugin('model', (k) => k.provide('model', listModel([])))], { cwd: tempDir() })
    await expect(kernel.startSession({ budgets: { session: { maxCostUsd: -2 } } })).rejects.toThrow(
      'startSession: budgets.session.maxCostUsd must be a number of USD > 0, got -2',
    )
    await kernel.dispose()
  })
})
