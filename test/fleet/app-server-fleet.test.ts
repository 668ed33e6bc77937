import { existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import {
  AppServerClient,
  type AppServerClientOptions,
  type AppServerHost,
  type AppServerClient as Client,
  createAppServerBridge,
  createAppServerHost,
  type WireTurn,
} from '@harness-kernel/app-server'
import { createKernel, type Kernel, type ModelProvider, type ModelRequest } from '@harness-kernel/kernel'
import { type PostgresFleet, type PostgresSessionLock, type PostgresSessionStore, postgresStore } from '@harness-kernel/store-postgres'
import { gate, waitUntil } from '@harness-kernel/testing'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { tools } from '@harness-kernel/tools'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

// Two App Servers on one PostgreSQL, each a "process" of its own (its kernel, its store instance, its lease), with
// clients on in-memory streams: what one server's client sends reaches the thread the other server runs.

let server: PostgresServer
let admin: pg.Pool
let schemas = 0
const closers: (() => Promise<void>)[] = []
beforeAll(async () => {
  server = await startPostgres()
  admin = new pg.Pool({ connectionString: server.url, max: 2 })
})
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {})
})
afterAll(async () => {
  await admin?.end()
  await server?.stop()
})

/** What the model was told, a line per message. */
const said = (request: ModelRequest) =>
  request.messages.map(
    (message) => `${message.role}: ${message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')}`,
  )

/** A model whose answers wait for `held` when it is given; it answers what it was last told. */
function model(held?: Promise<void>): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = []
  return {
    id: 'fleet-model',
    requests,
    async generate(request, options) {
      requests.push(request)
      if (held)
        await Promise.race([
          held,
          new Promise((_, reject) => options.signal.addEventListener('abort', () => reject(options.signal.reason))),
        ])
      return { content: [{ type: 'text', text: `answer ${requests.length}` }] }
    },
  }
}

interface Front {
  host: AppServerHost
  kernel: Kernel
  store: PostgresSessionStore
  fleet: PostgresFleet
  locks: PostgresSessionLock[]
  connect(name: string, options?: AppServerClientOptions): Promise<Client>
}

async function frontEnd(schema: string, provider: ModelProvider, leaseMs = 15_000): Promise<Front> {
  const store = postgresStore(server.url, { schema, leaseMs, localDir: mkdtempSync(join(tmpdir(), 'fleet-ledger-')) })
  const locks: PostgresSessionLock[] = []
  const lock = store.lock.bind(store)
  store.lock = async (id: string) => {
    const taken = await lock(id)
    locks.push(taken)
    return taken
  }
  const fleet = store.fleet({ pollMs: 200, followPollMs: 20 })
  const bridge = createAppServerBridge()
  const kernel = createKernel(
    [
      bridge.plugin,
      tools({ include: ['shell'] }),
      {
        name: 'fleet-test',
        setup: (api) => {
          api.provide('sessionStore', store)
          api.provide('model', provider)
        },
      },
    ],
    { cwd: realpathSync(mkdtempSync(join(tmpdir(), 'fleet-cwd-'))) },
  )
  const host = createAppServerHost({ kernel, bridge, fleet, log: () => {} })
  closers.push(async () => {
    await host.close()
    await kernel.dispose()
    await store.close()
  })
  return {
    host,
    kernel,
    store,
    fleet,
    locks,
    async connect(name, options = {}) {
      const toServer = new PassThrough()
      const fromServer = new PassThrough()
      host.connect({ input: toServer, output: fromServer, label: name })
      const client = new AppServerClient(fromServer, toServer, options)
      closers.push(async () => {
        toServer.end()
      })
      await client.initialize({ name })
      return client
    },
  }
}

const row = async (schema: string, id: string) =>
  (await admin.query(`SELECT state FROM "${schema}".inbox WHERE id = $1`, [id])).rows[0] as { state: string } | undefined

const until = <T>(probe: () => Promise<T | undefined | false>, what: string) => waitUntil(probe, what, { boundMs: 20_000 })

describe('App Servers sharing threads through PostgreSQL', () => {
  it('a steer sent to another front-end reaches the running turn once, retries included, and that front-end follows the turn', async () => {
    const schema = `fleet_${process.pid}_${++schemas}`
    const held = gate()
    const owner = await frontEnd(schema, model(held.opened))
    const provider = owner.kernel.resolve('model') as ReturnType<typeof model>
    const other = await frontEnd(schema, model())
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'start working')

    const resumed = await b.request<{ thread: { status: unknown; turns: WireTurn[] } }>('thread/resume', { threadId: thread.id })
    expect(resumed.thread.status).toEqual({ type: 'active', activeFlags: [] })
    expect(resumed.thread.turns.at(-1)).toMatchObject({ id: turn.id, status: 'inProgress' })

    const id = `steer:${thread.id}:c-1`
    expect(await b.steer(thread.id, turn.id, 'also this', 'c-1')).toEqual({ turnId: turn.id })
    // The client retries (it never saw the answer): the same row.
    expect(await b.steer(thread.id, turn.id, 'also this', 'c-1')).toEqual({ turnId: turn.id })
    await until(async () => (await row(schema, id))?.state === 'claimed', 'the owner to claim the steer')
    held.open()

    const done = (await b.turnCompleted(thread.id, turn.id)) as { turn: WireTurn }
    expect(done.turn.status).toBe('completed')
    await a.turnCompleted(thread.id, turn.id)
    expect(provider.requests).toHaveLength(2)
    expect(said(provider.requests[1]!).filter((line) => line === 'user: also this')).toHaveLength(1)
    await until(async () => (await row(schema, id))?.state === 'recorded', 'the steer to be recorded')
    const { events } = await owner.store.load(thread.id)
    const steered = events.filter((event) => event.type === 'message' && event.message.meta?.steeringItemId === id)
    expect(steered).toHaveLength(1)
    // b saw the steer and the answer as items, from the log.
    const items = b.notifications.filter((entry) => entry.method === 'item/completed').map((entry) => entry.params.item as { type: string })
    expect(items.map((item) => item.type)).toEqual(expect.arrayContaining(['userMessage', 'agentMessage']))
  })

  it('a turn/start sent to another front-end starts the turn on the owner; a retry is the same turn, recorded once', async () => {
    const schema = `fleet_${process.pid}_${++schemas}`
    const provider = model()
    const owner = await frontEnd(schema, provider)
    const other = await frontEnd(schema, model())
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const first = await b.startTurn(thread.id, 'from elsewhere', 'start-1')
    const again = await b.startTurn(thread.id, 'from elsewhere', 'start-1')
    expect(again.turn.id).toBe(first.turn.id)
    // The owner's own client sees the turn run there.
    const done = (await a.turnCompleted(thread.id, first.turn.id)) as { turn: WireTurn }
    expect(done.turn.status).toBe('completed')
    await b.turnCompleted(thread.id, first.turn.id)
    // The same input retried on the owner's front-end is still the same turn.
    expect((await a.startTurn(thread.id, 'from elsewhere', 'start-1')).turn.id).toBe(first.turn.id)
    expect(provider.requests).toHaveLength(1)
    await until(async () => (await row(schema, `steer:${thread.id}:start-1`))?.state === 'recorded', 'the input to be recorded')
    const { events } = await owner.store.load(thread.id)
    expect(events.filter((event) => event.type === 'turn/start')).toHaveLength(1)
  })

  it('a turn started through another front-end asks no connection of the owner for approval: its command is refused', async () => {
    const schema = `fleet_${process.pid}_${++schemas}`
    let calls = 0
    const provider: ModelProvider = {
      id: 'touch-model',
      async generate(request) {
        calls++
        const answered = request.messages.at(-1)?.role === 'tool'
        if (calls === 1 || answered) return { content: [{ type: 'text', text: 'done' }] }
        return { content: [{ type: 'tool_call', id: `call-${calls}`, name: 'shell', input: { command: 'touch approved' } }] }
      },
    }
    const owner = await frontEnd(schema, provider)
    const other = await frontEnd(schema, model())
    const asked: string[] = []
    const a = await owner.connect('a', {
      onApproval: (params) => {
        asked.push(String(params.itemId))
        return { decision: 'accept' }
      },
    })
    const b = await other.connect('b')
    const { thread } = await a.startThread({ approvalPolicy: 'untrusted' })
    // a starts (and so owns) the first turn; b's turn comes through the inbox.
    const first = await a.startTurn(thread.id, 'hello')
    await a.turnCompleted(thread.id, first.turn.id)
    const { turn } = await b.startTurn(thread.id, 'touch it', 'from-b')
    const done = (await a.turnCompleted(thread.id, turn.id)) as { turn: WireTurn }
    expect(done.turn.status).toBe('completed')
    expect(asked).toEqual([])
    const cwd = (await owner.store.summary(thread.id)).cwd!
    expect(existsSync(join(cwd, 'approved'))).toBe(false)
  })

  it('an interrupt sent to another front-end interrupts the owner’s turn', async () => {
    const schema = `fleet_${process.pid}_${++schemas}`
    const owner = await frontEnd(schema, model(new Promise(() => {})))
    const other = await frontEnd(schema, model())
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'work forever')
    await b.request('thread/resume', { threadId: thread.id, excludeTurns: true })
    expect(await b.interrupt(thread.id, turn.id)).toEqual({})
    const ended = (await a.turnCompleted(thread.id, turn.id)) as { turn: WireTurn }
    expect(ended.turn.status).toBe('interrupted')
    const seen = (await b.turnCompleted(thread.id, turn.id)) as { turn: WireTurn }
    expect(seen.turn.status).toBe('interrupted')
  })

  it('a thread whose owner stalled past its lease is taken over by another server, which records the waiting steer', async () => {
    const schema = `fleet_${process.pid}_${++schemas}`
    const owner = await frontEnd(schema, model(new Promise(() => {})), 600)
    const taker = model()
    const other = await frontEnd(schema, taker)
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'stall')
    await b.request('thread/resume', { threadId: thread.id, excludeTurns: true })

    // The owner stalls: its lease runs out by the database's clock, and it can claim nothing more.
    owner.locks[0]!.pauseRenewal()
    await until(
      async () =>
        (await admin.query(`SELECT lease_until <= now() AS expired FROM "${schema}".threads WHERE id = $1`, [thread.id])).rows[0]?.expired,
      'the lease to run out',
    )
    const id = `steer:${thread.id}:late`
    expect(await b.steer(thread.id, turn.id, 'carry on without them', 'late')).toEqual({ turnId: turn.id })

    // The other server takes the thread over (its sweep), repairs the open turn and starts one with the steer.
    const started = (await b.waitFor('turn/started', (params) => (params.turn as WireTurn).id !== turn.id, { timeoutMs: 20_000 })) as {
      turn: WireTurn
    }
    const next = (await b.turnCompleted(thread.id, started.turn.id)) as { turn: WireTurn }
    expect(next.turn.status).toBe('completed')
    await until(async () => (await row(schema, id))?.state === 'recorded', 'the steer to be recorded')
    expect(said(taker.requests[0]!)).toContain('user: carry on without them')
    const { events } = await other.store.load(thread.id)
    expect(events.find((event) => event.type === 'turn/end' && event.turnId === turn.id)).toMatchObject({ status: 'interrupted' })
    expect(events.filter((event) => event.type === 'message' && event.message.meta?.steeringItemId === id)).toHaveLength(1)

    // The stalled owner wakes up fenced off: its turn ends interrupted, nothing of it is written.
    owner.locks[0]!.resumeRenewal()
    const lost = (await a.turnCompleted(thread.id, turn.id, 20_000)) as { turn: WireTurn }
    expect(lost.turn).toMatchObject({
      status: 'interrupted',
      error: { message: expect.stringContaining('another process took this thread over') },
    })
    await a.waitFor('thread/closed', (params) => params.threadId === thread.id)
    const after = await other.store.load(thread.id)
    const epochs = (await admin.query(`SELECT epoch FROM "${schema}".events WHERE thread_id = $1 ORDER BY seq`, [thread.id])).rows.map(
      (entry: { epoch: string }) => Number(entry.epoch),
    )
    expect(epochs).toEqual([...epochs].sort((x, y) => x - y))
    expect(after.events.map((event) => event.seq)).toEqual(after.events.map((_, index) => index + 1))
  })
})
