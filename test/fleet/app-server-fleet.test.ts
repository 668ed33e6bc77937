import type { WireTurn } from '@harness-kernel/app-server'
import { gate } from '@harness-kernel/testing'
import { describe, expect, it } from 'vitest'
import { model, said, useFrontEnds } from './support/front-ends.js'

// Two App Servers on one PostgreSQL, each a "process" of its own (its kernel, its store instance, its lease), with
// clients on in-memory streams: what one server's client sends reaches the thread the other server runs.

const fleet = useFrontEnds()
const { row, until } = fleet

describe('App Servers sharing threads through PostgreSQL', () => {
  it('a steer sent to another front-end reaches the running turn once, retries included, and that front-end follows the turn', async () => {
    const schema = fleet.schema()
    const held = gate()
    const owner = await fleet.frontEnd(schema, model(held.opened))
    const provider = owner.kernel.resolve('model') as ReturnType<typeof model>
    const other = await fleet.frontEnd(schema, model())
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'start working')
    // The owner writes its log behind: b's server answers the resume from what is committed.
    await until(async () => (await owner.fleet.openTurn(thread.id)) === turn.id, 'the owner to commit the turn')

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
    const schema = fleet.schema()
    const provider = model()
    const owner = await fleet.frontEnd(schema, provider)
    const other = await fleet.frontEnd(schema, model())
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

  it('an interrupt sent to another front-end interrupts the owner’s turn', async () => {
    const schema = fleet.schema()
    const owner = await fleet.frontEnd(schema, model(new Promise(() => {})))
    const other = await fleet.frontEnd(schema, model())
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
    const schema = fleet.schema()
    const owner = await fleet.frontEnd(schema, model(new Promise(() => {})), 600)
    const taker = model()
    const other = await fleet.frontEnd(schema, taker)
    const a = await owner.connect('a')
    const b = await other.connect('b')
    const { thread } = await a.startThread()
    const { turn } = await a.startTurn(thread.id, 'stall')
    await b.request('thread/resume', { threadId: thread.id, excludeTurns: true })

    // The owner stalls: its lease runs out by the database's clock, and it can claim nothing more.
    owner.locks[0]!.pauseRenewal()
    await until(
      async () =>
        (
          await fleet.sql<{ expired: boolean }>(`SELECT lease_until <= now() AS expired FROM "${schema}".threads WHERE id = $1`, [
            thread.id,
          ])
        )[0]?.expired,
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
    const epochs = (
      await fleet.sql<{ epoch: string }>(`SELECT epoch FROM "${schema}".events WHERE thread_id = $1 ORDER BY seq`, [thread.id])
    ).map((entry) => Number(entry.epoch))
    expect(epochs).toEqual([...epochs].sort((x, y) => x - y))
    expect(after.events.map((event) => event.seq)).toEqual(after.events.map((_, index) => index + 1))
  })
})
