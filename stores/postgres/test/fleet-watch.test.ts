import { describe, expect, it } from 'vitest'
import { openThread, steerItem } from './support/fleet-threads.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'
import { Wakes } from './support/wakes.js'

const database = useTestDatabase()

/** Polls enough to cover a test; a value this long keeps the poll out of tests of `LISTEN`. */
const NO_POLL_MS = 600_000

/**
 * Connections whose last statement was the sweep of the schema's open rows: with the poll off, only listening
 * connections run it (right after their LISTEN).
 */
const listeners = async (schema: string) =>
  (
    await database.sql<{ count: string }>(`SELECT count(*) FROM pg_stat_activity WHERE query LIKE $1`, [`%"${schema}".inbox AS item JOIN%`])
  )[0]?.count

describe('watching the inbox', () => {
  it('accept in one store instance wakes the watcher of another at once (NOTIFY), with the thread’s id', async () => {
    const schema = database.freshSchema()
    const front = database.store({ schema })
    const owner = database.store({ schema })
    await openThread(database, owner, 'thread-1')
    const wakes = new Wakes()
    const watch = owner.fleet({ pollMs: NO_POLL_MS }).watchInbox(wakes.wake)
    await watch.ready
    expect(wakes.counts.size).toBe(0)
    const woken = wakes.next('thread-1')
    await front.fleet().accept(steerItem('item-1', 'thread-1'))
    await woken
    // A retry adds no row and wakes no one.
    await front.fleet().accept(steerItem('item-1', 'thread-1'))
    const woken2 = wakes.next('thread-1')
    await front.fleet().accept(steerItem('item-2', 'thread-1'))
    await woken2
    expect(wakes.count('thread-1')).toBe(2)
    await watch.close()
  })

  it('on start, and every pollMs, wakes threads with pending rows or rows claimed under an older epoch, and no others', async () => {
    const schema = database.freshSchema()
    const store = database.store({ schema })
    const fleet = store.fleet({ pollMs: 30 })
    for (const id of ['pending', 'stale-claimed', 'claimed-now', 'settled', 'empty']) await openThread(database, store, id)
    await fleet.accept(steerItem('pending-item', 'pending'))
    await fleet.accept(steerItem('claimed-now-item', 'claimed-now'))
    await fleet.claim('claimed-now')
    await fleet.accept(steerItem('settled-item', 'settled'))
    await fleet.settle(['settled-item'], 'dropped')
    await fleet.accept(steerItem('stale-item', 'stale-claimed'))
    await fleet.claim('stale-claimed')
    // What a take-over leaves: the row claimed under the epoch before the thread's.
    await database.sql(`UPDATE "${schema}".threads SET epoch = epoch + 1 WHERE id = 'stale-claimed'`)

    const wakes = new Wakes()
    const polled = Promise.all([wakes.next('pending', 3), wakes.next('stale-claimed', 3)])
    const watch = fleet.watchInbox(wakes.wake)
    await polled
    expect([...wakes.counts.keys()].sort()).toEqual(['pending', 'stale-claimed'])
    // A row written without NOTIFY (another writer of the table) is found by the poll.
    const late = wakes.next('empty')
    await database.sql(
      `INSERT INTO "${schema}".inbox (id, thread_id, kind, payload) VALUES ('quiet', 'empty', 'interrupt', '{"turnId":"t"}')`,
    )
    await late
    await watch.close()
  })

  it('one listening connection per fleet, however many watch; close ends it, and a waker that throws stops no other', async () => {
    const schema = database.freshSchema()
    const store = database.store({ schema })
    await openThread(database, store, 'thread-1')
    const fleet = store.fleet({ pollMs: NO_POLL_MS })
    const wakes = new Wakes()
    const first = fleet.watchInbox(() => {
      throw new Error('a waker that fails')
    })
    const second = fleet.watchInbox(wakes.wake)
    await Promise.all([first.ready, second.ready])
    expect(await listeners(schema)).toBe('1')
    const woken = wakes.next('thread-1')
    await fleet.accept(steerItem('item-1', 'thread-1'))
    await woken
    await first.close()
    expect(await listeners(schema)).toBe('1')
    await second.close()
    await waitFor(async () => (await listeners(schema)) === '0', 'the listening connection to end')
    await fleet.close()
    expect(() => fleet.watchInbox(wakes.wake)).toThrow(expect.objectContaining({ name: 'KernelError' }))
  })
})
