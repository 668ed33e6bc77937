import { afterEach, describe, expect, it } from 'vitest'
import type { AppServerClient } from '../src/client.js'
import { methods, release, startServer, toolHeldUntil } from './harness.js'
import { codexSchema } from './support/codex-schema.js'

// Every message the servers sent could have come from Codex 0.169.0 and 0.171.0 (their schemas; documented extensions aside).
afterEach(() => {
  expect(codexSchema.take()).toEqual([])
})

const clients: AppServerClient[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const MSG_ID = /^msg_[0-9a-f]{32}$/
type Item = { type: string; id: string; startedAtMs: number; completedAtMs: number | null; clientId?: string | null }
const itemsOf = (client: AppServerClient, method: string) =>
  client.notifications.filter((entry) => entry.method === method).map((entry) => entry.params.item as Item)
const breakdown = (input: number, output: number) => ({
  totalTokens: input + output,
  inputTokens: input,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: output,
  reasoningOutputTokens: 0,
})

describe('token usage, warnings, ids and time stamps (codex-app-server.md §5)', () => {
  it('thread/tokenUsage/updated once each model response is done, with the thread’s total; again after a cold resume', async () => {
    const server = startServer([{ tool_calls: [{ name: 'echo', input: { text: 'a' }, id: 'call_a' }] }, { text: 'done' }], {
      args: ['--usage'],
    })
    const { client } = server
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    await client.turnCompleted(thread.id, turn.id)
    const usage = client.notifications.filter((entry) => entry.method === 'thread/tokenUsage/updated').map((entry) => entry.params)
    const tokenUsage = (input: number, output: number) => ({
      total: breakdown(input, output),
      last: breakdown(10, 5),
      modelContextWindow: null,
    })
    expect(usage).toEqual([
      { threadId: thread.id, turnId: turn.id, tokenUsage: tokenUsage(10, 5) },
      { threadId: thread.id, turnId: turn.id, tokenUsage: tokenUsage(20, 10) },
    ])
    // The first response's usage comes once its tool call is done, the last one's right after its message, as Codex's.
    const order = methods(client).filter(
      (method) => method === 'thread/tokenUsage/updated' || /item\/completed|turn\/completed/.test(method),
    )
    const kinds = order.map((method, index) => {
      if (method !== 'item/completed') return method
      return itemsOf(client, 'item/completed')[order.slice(0, index).filter((entry) => entry === 'item/completed').length]!.type
    })
    expect(kinds).toEqual([
      'userMessage',
      'commandExecution',
      'thread/tokenUsage/updated',
      'agentMessage',
      'thread/tokenUsage/updated',
      'turn/completed',
    ])
    await client.close()

    const restarted = server.restart({}).client
    clients.push(restarted)
    await restarted.initialize()
    await restarted.request('thread/resume', { threadId: thread.id, excludeTurns: true })
    expect(await restarted.waitFor('thread/tokenUsage/updated')).toEqual({
      threadId: thread.id,
      turnId: turn.id,
      tokenUsage: tokenUsage(20, 10),
    })
    expect(methods(restarted).slice(-2)).toEqual([expect.stringMatching(/^response:/), 'thread/tokenUsage/updated'])
  })

  it('a kernel warning notice is a `warning` notification', async () => {
    const server = startServer([{ error: { message: 'overloaded', retryable: true } }, { text: 'recovered' }])
    const { client } = server
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    await client.turnCompleted(thread.id, turn.id)
    const warning = await client.waitFor('warning')
    expect(warning).toEqual({ threadId: thread.id, message: expect.stringContaining('overloaded') })
  })

  it('ids as Codex forms them: UUIDv7 turns and user messages, `msg_…` agent messages, the same on thread/resume', async () => {
    const server = startServer([toolHeldUntil('steered'), { text: 'streamed answer' }, { text: 'plain answer' }], {
      args: ['--text-deltas'],
    })
    const { client } = server
    clients.push(client)
    await client.initialize()
    const { thread } = await client.startThread()
    const { turn } = await client.startTurn(thread.id, 'go')
    expect(turn.id).toMatch(UUID_V7)
    await client.waitFor('item/started', (params) => (params.item as Item).type === 'commandExecution')
    await client.steer(thread.id, turn.id, 'and this', 'steer-1')
    release(server, 'steered')
    await client.turnCompleted(thread.id, turn.id)
    const live = itemsOf(client, 'item/completed').filter((item) => item.type !== 'commandExecution')
    expect(live.map((item) => item.type)).toEqual(['userMessage', 'userMessage', 'agentMessage'])
    expect(live[0]!.id).toMatch(UUID_V7)
    expect(live[1]).toMatchObject({ clientId: 'steer-1', id: expect.stringMatching(UUID_V7) })
    expect(live[2]!.id).toMatch(MSG_ID)

    // Every item is stamped: started with `completedAtMs: null`, completed with both.
    for (const item of itemsOf(client, 'item/started')) expect(item).toMatchObject({ startedAtMs: expect.any(Number), completedAtMs: null })
    for (const item of itemsOf(client, 'item/completed')) {
      expect(item.completedAtMs).toBeGreaterThanOrEqual(item.startedAtMs)
    }
    const { turn: second } = await client.startTurn(thread.id, 'again')
    await client.turnCompleted(thread.id, second.id)
    const plain = itemsOf(client, 'item/completed').at(-1)!
    expect(plain.id).toMatch(MSG_ID)
    expect(plain.id).not.toBe(live[2]!.id)
    await client.close()

    const restarted = server.restart().client
    clients.push(restarted)
    await restarted.initialize()
    const { thread: resumed } = await restarted.resumeThread(thread.id)
    const ids = (items: { type: string; id: string }[]) => items.filter((item) => item.type !== 'commandExecution').map((item) => item.id)
    const shown = ids(itemsOf(client, 'item/completed'))
    expect(resumed.turns.map((entry) => ids(entry.items))).toEqual([shown.slice(0, 3), shown.slice(3)])
  })
})
