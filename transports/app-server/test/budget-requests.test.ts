import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient, BudgetRequest } from '../src/client.js'
import { startServer } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

// Each response reports 10 in and 5 out tokens (--usage): a turn budget of 10 is reached by the first.
const SCRIPT = [{ tool_calls: [{ name: 'echo', input: { text: 'a' }, id: 'call_a' }] }, { text: 'done' }]
const ARGS = ['--usage', '--turn-max-tokens', '10']

async function runTurn(client: AppServerClient) {
  const { thread } = await client.startThread()
  const { turn } = await client.startTurn(thread.id, 'go')
  const { turn: ended } = await client.turnCompleted(thread.id, turn.id)
  return { threadId: thread.id, turnId: turn.id, ended }
}

const warnings = (client: AppServerClient) =>
  client.notifications.filter((entry) => entry.method === 'warning').map((entry) => entry.params.message)

describe('turn/budget/request (README "Budgets")', () => {
  it('asks the connection that opted in, and its raise lets the turn go on', async () => {
    const asked: BudgetRequest[] = []
    const server = startServer(SCRIPT, {
      args: ARGS,
      onBudget: (request) => {
        asked.push(request)
        return 100
      },
    })
    const { client } = server
    clients.push(client)
    const init = await client.initialize({ budget: { timeoutMs: 5_000 } })
    expect(init.budget).toEqual({ version: 1, timeoutMs: 5_000 })
    const { threadId, turnId, ended } = await runTurn(client)
    expect(ended.status).toBe('completed')
    expect(asked).toEqual([{ threadId, turnId, budget: { scope: 'turn', kind: 'tokens', limit: 10, used: 15 } }])
    const request = client.received.find((message) => message.method === 'turn/budget/request')
    expect(client.notifications).toContainEqual({ method: 'serverRequest/resolved', params: { threadId, requestId: request?.id } })
    // The raise held: the tool ran and the model answered again.
    expect(server.requests()).toHaveLength(2)
    expect(warnings(client)).toEqual([])
  })

  it('halts the turn when the connection answers no new limit', async () => {
    const server = startServer(SCRIPT, { args: ARGS, onBudget: () => undefined })
    const { client } = server
    clients.push(client)
    await client.initialize({ budget: {} })
    const { ended } = await runTurn(client)
    expect(ended.status).toBe('completed')
    expect(warnings(client)).toContain('turn halted: turn token budget of 10 reached: 15 used')
    expect(server.requests()).toHaveLength(1)
  })

  it('halts the turn when the answer does not come in time, and tells the connection the request is over', async () => {
    const server = startServer(SCRIPT, { args: ARGS, onBudget: () => new Promise<undefined>(() => {}) })
    const { client } = server
    clients.push(client)
    const init = await client.initialize({ budget: { timeoutMs: 10 } })
    // Clamped to the least the server waits.
    expect(init.budget).toEqual({ version: 1, timeoutMs: 1_000 })
    const { threadId } = await runTurn(client)
    expect(warnings(client)).toContain('turn halted: turn token budget of 10 reached: 15 used')
    const request = client.received.find((message) => message.method === 'turn/budget/request')
    expect(client.notifications).toContainEqual({ method: 'serverRequest/resolved', params: { threadId, requestId: request?.id } })
  })

  it('asks no connection that did not opt in: the turn halts', async () => {
    let asked = 0
    const server = startServer(SCRIPT, {
      args: ARGS,
      onBudget: () => {
        asked++
        return 100
      },
    })
    const { client } = server
    clients.push(client)
    const init = await client.initialize()
    expect(init.budget).toBeUndefined()
    await runTurn(client)
    expect(asked).toBe(0)
    expect(warnings(client)).toContain('turn halted: turn token budget of 10 reached: 15 used')
  })
})
