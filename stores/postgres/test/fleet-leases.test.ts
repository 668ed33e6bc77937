import { hostname } from 'node:os'
import { describe, expect, it } from 'vitest'
import { inboxStates, leaseRunsOut, openThread, steerItem } from './support/fleet-threads.js'
import { useTestDatabase } from './support/test-database.js'

const database = useTestDatabase()

describe('the fleet’s claims under leases', () => {
  it('only the live lease holder claims, and each row once; holder names it', async () => {
    const schema = database.freshSchema()
    // Two store instances on one schema: two processes.
    const owner = database.store({ schema })
    const other = database.store({ schema })
    const { lock } = await openThread(database, owner, 'thread-1')
    const ownerFleet = owner.fleet()
    const otherFleet = other.fleet()
    await otherFleet.accept(steerItem('item-1', 'thread-1'))
    await otherFleet.accept(steerItem('item-2', 'thread-1'))
    expect(await otherFleet.holder('thread-1')).toEqual({ pid: process.pid, host: hostname(), instance: owner.instance, epoch: lock.epoch })
    expect(await otherFleet.holder('no-such-thread')).toBeUndefined()

    expect(await otherFleet.claim('thread-1')).toEqual([])
    const [first, second] = await Promise.all([ownerFleet.claim('thread-1'), ownerFleet.claim('thread-1')])
    expect([...(first ?? []), ...(second ?? [])].map((item) => item.id).sort()).toEqual(['item-1', 'item-2'])
    expect(await ownerFleet.claim('thread-1')).toEqual([])
    // Another instance cannot put the owner's claims back.
    await otherFleet.release(['item-1', 'item-2'])
    expect(await inboxStates(database, schema)).toEqual({ 'item-1': 'claimed', 'item-2': 'claimed' })
    expect(await ownerFleet.orphans()).toEqual([])

    await lock.release()
    expect(await otherFleet.holder('thread-1')).toBeUndefined()
    // A released lease claims nothing, and its claimed rows are orphans: their claimant no longer holds the thread.
    expect(await ownerFleet.claim('thread-1')).toEqual([])
    expect(await otherFleet.orphans()).toEqual(['thread-1'])
  })

  it('a holder whose lease ran out claims nothing; the next holder re-claims what the old epoch claimed, and the old one cannot release it', async () => {
    const schema = database.freshSchema()
    const stalled = database.store({ schema, leaseMs: 600 })
    const next = database.store({ schema })
    const { lock: oldLock } = await openThread(database, stalled, 'thread-1')
    const stalledFleet = stalled.fleet()
    const nextFleet = next.fleet()
    await nextFleet.accept(steerItem('claimed-before', 'thread-1'))
    expect((await stalledFleet.claim('thread-1')).map((item) => item.id)).toEqual(['claimed-before'])
    await nextFleet.accept(steerItem('pending-after', 'thread-1'))

    await leaseRunsOut(database, stalled, oldLock)
    expect(await stalledFleet.claim('thread-1')).toEqual([])
    expect(await nextFleet.holder('thread-1')).toBeUndefined()
    expect(await nextFleet.orphans()).toEqual(['thread-1'])

    const newLock = database.track(await next.lock('thread-1'))
    expect(newLock.epoch).toBe(oldLock.epoch + 1)
    expect(await nextFleet.orphans()).toEqual([])
    expect(await stalledFleet.holder('thread-1')).toMatchObject({ instance: next.instance, epoch: newLock.epoch })
    // The stalled holder runs again: still nothing for it, and its release of the old claim changes nothing.
    expect(await stalledFleet.claim('thread-1')).toEqual([])
    await stalledFleet.release(['claimed-before'])
    expect((await nextFleet.claim('thread-1')).map((item) => item.id)).toEqual(['claimed-before', 'pending-after'])
    await stalledFleet.release(['claimed-before'])
    const rows = await database.sql<{ id: string; state: string; claimed_epoch: string; claimed_by: string }>(
      `SELECT id, state, claimed_epoch, claimed_by FROM "${schema}".inbox ORDER BY n`,
    )
    expect(rows).toEqual([
      { id: 'claimed-before', state: 'claimed', claimed_epoch: String(newLock.epoch), claimed_by: next.instance },
      { id: 'pending-after', state: 'claimed', claimed_epoch: String(newLock.epoch), claimed_by: next.instance },
    ])
    expect(await nextFleet.claim('thread-1')).toEqual([])
  })

  it('orphans lists threads with open rows whose lease is free or ran out, and only those', async () => {
    const schema = database.freshSchema()
    const store = database.store({ schema, leaseMs: 600 })
    const watcher = database.store({ schema })
    const fleet = watcher.fleet()
    const live = await openThread(database, watcher, 'live-thread')
    const expiring = await openThread(database, store, 'expiring-thread')
    const settled = await openThread(database, store, 'settled-thread')
    const quiet = await openThread(database, store, 'quiet-thread')
    await fleet.accept(steerItem('live-item', 'live-thread'))
    await fleet.accept(steerItem('expiring-item', 'expiring-thread'))
    await fleet.accept(steerItem('settled-item', 'settled-thread'))
    await fleet.settle(['settled-item'], 'recorded')
    expect(await fleet.orphans()).toEqual([])
    await Promise.all([expiring, settled, quiet].map(({ lock }) => leaseRunsOut(database, store, lock)))
    expect(await fleet.orphans()).toEqual(['expiring-thread'])
    expect(live.lock.lostError).toBeUndefined()
  })
})
