import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { AppServerClient, BudgetRequest, WireTurn } from '@harness-kernel/app-server'
import type { ModelProvider } from '@harness-kernel/kernel'
import { gate } from '@harness-kernel/testing'
import { describe, expect, it } from 'vitest'
import { type Front, model, said, useFrontEnds } from './support/front-ends.js'

// Server requests across servers: a turn the owner runs from input another front-end accepted asks that front-end's
// connection (relayed through PostgreSQL) its approvals and host input, never a connection of the owner's, and fails
// closed when that connection or its whole front-end is gone.

const fleet = useFrontEnds()
const { until } = fleet

/** A model that runs `touch <name>` through the shell when the last prompt says `touch <name>`, then says done. */
function toucher(): ModelProvider {
  let calls = 0
  return {
    id: 'touch-model',
    async generate(request) {
      calls++
      const last = request.messages.at(-1)
      const text = last?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? ''
      const file = /^touch (\w+)$/.exec(text)?.[1]
      if (last?.role !== 'user' || file === undefined) return { content: [{ type: 'text', text: 'done' }] }
      return { content: [{ type: 'tool_call', id: `call-${calls}`, name: 'shell', input: { command: `touch ${file}` } }] }
    },
  }
}

/** The commands whose items completed declined, as a connection of the owner saw them. */
const declinedCommands = (client: AppServerClient) =>
  client.notifications
    .filter((entry) => entry.method === 'item/completed')
    .map((entry) => entry.params.item as { type: string; status?: string; command?: string })
    .filter((item) => item.type === 'commandExecution' && item.status === 'declined')
    .map((item) => item.command)

const cwdOf = async (front: Front, threadId: string) => (await front.store.summary(threadId)).cwd!

describe('server requests of a turn started through another front-end', () => {
  it('an approval goes to the connection that sent the turn/start, with the policy it asked for; the owner’s connection is not asked', async () => {
    const schema = fleet.schema()
    const owner = await fleet.frontEnd(schema, toucher())
    const other = await fleet.frontEnd(schema, model())
    const askedOfA: string[] = []
    const a = await owner.connect('a', {
      onApproval: (params) => {
        askedOfA.push(String(params.itemId))
        return { decision: 'accept' }
      },
    })
    const askedOfB: string[] = []
    const b = await other.connect('b', {
      onApproval: (params) => {
        askedOfB.push(String(params.command))
        return { decision: 'accept' }
      },
    })
    // The thread runs commands unasked; b's turn/start asks for `untrusted`, which must hold where the thread runs.
    const { thread } = await a.startThread({ approvalPolicy: 'never', sandbox: 'danger-full-access' })
    const first = await a.startTurn(thread.id, 'hello')
    await a.turnCompleted(thread.id, first.turn.id)

    const { turn } = await b.request<{ turn: WireTurn }>('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'touch approved', text_elements: [] }],
      approvalPolicy: 'untrusted',
    })
    const done = await b.turnCompleted(thread.id, turn.id)
    expect(done.turn.status).toBe('completed')
    expect(askedOfB).toEqual([expect.stringContaining('touch approved')])
    expect(askedOfA).toEqual([])
    expect(existsSync(join(await cwdOf(owner, thread.id), 'approved'))).toBe(true)
    // b is told the request is over, as for a turn of its own server.
    const request = b.received.find((message) => message.method === 'item/commandExecution/requestApproval')!
    await b.waitFor('serverRequest/resolved', (params) => params.requestId === request.id)

    // A refusal is one too: the command does not run.
    b.onApproval = () => ({ decision: 'decline' })
    const refused = await b.request<{ turn: WireTurn }>('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'touch refused', text_elements: [] }],
    })
    await b.turnCompleted(thread.id, refused.turn.id)
    expect(existsSync(join(await cwdOf(owner, thread.id), 'refused'))).toBe(false)
    expect(askedOfA).toEqual([])
  })

  it('host input is asked of that connection, with the settings it negotiated, and its items reach the model', async () => {
    const schema = fleet.schema()
    const provider = model()
    const owner = await fleet.frontEnd(schema, provider)
    const other = await fleet.frontEnd(schema, model())
    const askedOfA: unknown[] = []
    const a = await owner.connect('a', {
      hostInput: { timeoutMs: 5_000 },
      onHostInput: (request) => {
        askedOfA.push(request)
        return { items: [] }
      },
    })
    const boundaries: string[] = []
    const b = await other.connect('b', {
      hostInput: { timeoutMs: 5_000 },
      onHostInput: (request) => {
        boundaries.push(`${request.boundary.kind}:${request.boundary.step}`)
        if (boundaries.length > 1) return { items: [] }
        return {
          items: [{ role: 'user', authority: 'user', content: [{ type: 'text', text: 'and from the host on b', text_elements: [] }] }],
        }
      },
    })
    const { thread } = await a.startThread()
    const { turn } = await b.startTurn(thread.id, 'begin', 'host-1')
    const done = await b.turnCompleted(thread.id, turn.id)
    expect(done.turn.status).toBe('completed')
    expect(boundaries[0]).toMatch(/^final:/)
    expect(provider.requests).toHaveLength(2)
    expect(said(provider.requests[1]!)).toContain('user: and from the host on b')
    expect(askedOfA).toEqual([])
    const { events } = await owner.store.load(thread.id)
    const hostMessages = events.filter((event) => event.type === 'message' && event.message.source.kind === 'steering')
    expect(hostMessages).toHaveLength(1)
  })

  /**
   * b's turn runs `touch <file>` on the owner under `untrusted`; b is asked and never answers, then `leave` takes b (or
   * its server) away. The owner must refuse: the command does not run, its item is declined, the turn completes.
   */
  async function askedThenGone(file: string, leave: (other: Front, b: AppServerClient) => Promise<void>, leaseMs?: number) {
    const schema = fleet.schema()
    const owner = await fleet.frontEnd(schema, toucher(), leaseMs)
    const other = await fleet.frontEnd(schema, model())
    const a = await owner.connect('a')
    const asked = gate()
    const b = await other.connect('b', {
      onApproval: () => {
        asked.open()
        return new Promise(() => {})
      },
    })
    const { thread } = await a.startThread({ approvalPolicy: 'untrusted' })
    const { turn } = await b.startTurn(thread.id, `touch ${file}`, file)
    await asked.opened
    await leave(other, b)
    const done = await a.turnCompleted(thread.id, turn.id, 20_000)
    expect(done.turn.status).toBe('completed')
    expect(existsSync(join(await cwdOf(owner, thread.id), file))).toBe(false)
    expect(declinedCommands(a)).toEqual([expect.stringContaining(`touch ${file}`)])
  }

  it('a connection that goes away while asked is a refusal: the command does not run and the turn goes on', async () => {
    await askedThenGone('orphaned', async (other, b) => other.hangUp(b))
  })

  it('a front-end that vanishes while its connection is asked is a refusal once it has been gone for a lease', async () => {
    // Its database connections go (as a killed process's do): nobody is left to answer.
    await askedThenGone('abandoned', (other) => other.fleet.close(), 1_500)
  })

  it('input the owner drops is reported on the front-end that accepted it: turn/steer/dropped, and a turn/start refused', async () => {
    const schema = fleet.schema()
    const owner = await fleet.frontEnd(schema, model(new Promise(() => {})))
    const other = await fleet.frontEnd(schema, model())
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'work forever')
    await b.resumeThread(thread.id)
    expect(await b.steer(thread.id, turn.id, 'too late', 's-1')).toEqual({ turnId: turn.id })
    const started = b.startTurn(thread.id, 'also too late', 'st-1')
    const refusal = expect(started).rejects.toThrow(/was dropped by the thread's owner/)
    await until(async () => (await fleet.row(schema, `steer:${thread.id}:s-1`))?.state === 'claimed', 'the owner to claim the steer')
    await until(async () => (await fleet.row(schema, `steer:${thread.id}:st-1`))?.state === 'claimed', 'the owner to claim the start')
    await b.interrupt(thread.id, turn.id)
    const dropped = await b.waitFor('turn/steer/dropped', (params) => params.clientUserMessageId === 's-1')
    expect(dropped).toMatchObject({ threadId: thread.id, turnId: turn.id, input: [{ type: 'text', text: 'too late' }] })
    await refusal
    expect((await fleet.row(schema, `steer:${thread.id}:st-1`))?.state).toBe('dropped')
  })

  it('a budget such a turn reaches is asked of that connection (opted in), never of the owner’s; a raise holds, no answer halts', async () => {
    const schema = fleet.schema()
    // Each answer spends 150 tokens: a turn budget of 100 is reached by the first.
    const spender: ModelProvider = {
      id: 'spender',
      generate: async () => ({ content: [{ type: 'text', text: 'spent' }], usage: { inputTokens: 120, outputTokens: 30 } }),
    }
    const owner = await fleet.frontEnd(schema, spender, undefined, { budgets: { turn: { maxTokens: 100 } } })
    const other = await fleet.frontEnd(schema, model())
    const askedOfA: BudgetRequest[] = []
    const a = await owner.connect('a', { budget: {}, onBudget: (request) => void askedOfA.push(request) })
    const askedOfB: BudgetRequest[] = []
    let raise: number | undefined = 1_000
    const b = await other.connect('b', {
      budget: { timeoutMs: 20_000 },
      onBudget: (request) => {
        askedOfB.push(request)
        return raise
      },
    })
    const { thread } = await a.startThread()
    const start = (text: string) =>
      b.request<{ turn: WireTurn }>('turn/start', { threadId: thread.id, input: [{ type: 'text', text, text_elements: [] }] })

    const first = (await start('spend')).turn
    await b.turnCompleted(thread.id, first.id)
    expect(askedOfB).toEqual([{ threadId: thread.id, turnId: first.id, budget: { scope: 'turn', kind: 'tokens', limit: 100, used: 150 } }])
    raise = undefined
    const second = (await start('spend again')).turn
    await b.turnCompleted(thread.id, second.id)
    expect(askedOfB).toHaveLength(2)
    expect(askedOfA).toEqual([])
    const ends = (await owner.store.load(thread.id)).events.filter((event) => event.type === 'turn/end')
    expect(ends.map((event) => [event.turnId, event.status])).toEqual([
      [first.id, 'completed'],
      [second.id, 'halted'],
    ])
  })
})
