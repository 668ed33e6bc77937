import { hostname } from 'node:os'
import type { SessionEventBody } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import type { PostgresSessionStore } from '../src/index.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()

const start = (id: string): SessionEventBody => ({
  type: 'session/start',
  sessionId: id,
  cwd: '/work',
  createdAt: '2026-03-01T00:00:00.000Z',
})
const turnStart = (turnId: string): SessionEventBody => ({ type: 'turn/start', turnId })

/** Polls the database's clock until the thread's lease has run out (the event a take-over waits for). */
const leaseRunsOut = (store: PostgresSessionStore, id: string) =>
  waitFor(async () => {
    const [row] = await database.sql<{ expired: boolean }>(
      `SELECT lease_until <= now() AS expired FROM "${store.schema}".threads WHERE id = $1`,
      [id],
    )
    return row?.expired === true
  }, `the lease of ${id} to run out`)

describe('leases and fencing', () => {
  it('a holder whose lease ran out is fenced out: the next holder takes over at epoch + 1 and the old one can no longer write', async () => {
    const schema = database.freshSchema()
    // Two store instances: two processes sharing the database.
    const a = database.store({ schema, leaseMs: 600 })
    const b = database.store({ schema, leaseMs: 15_000 })
    const id = 'fenced-thread'
    const lockA = database.track(await a.lock(id))
    const logA = database.track(await a.create(id, lockA))
    const lost: Error[] = []
    logA.onLost((error) => lost.push(error))
    const before = [logA.append(start(id)), logA.append(turnStart('t1'))]
    await logA.sync()

    lockA.pauseRenewal()
    await leaseRunsOut(a, id)
    const lockB = database.track(await b.lock(id))
    expect(lockB.epoch).toBe(lockA.epoch + 1)
    expect(lockB.tookOver).toEqual({ pid: process.pid, host: hostname(), since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) })
    const { events } = await b.load(id)
    expect(events).toEqual(before)
    const logB = database.track(await b.reopen(id, 2, lockB))
    const afterTakeOver = [logB.append({ type: 'session/resume', sessionId: id }), logB.append(turnStart('t2'))]
    await logB.sync()

    const late = logA.append(turnStart('late'))
    expect(late.seq).toBe(3)
    const refusal = logA.sync()
    await expect(refusal).rejects.toMatchObject({
      name: 'KernelError',
      message: `session ${id} was taken over by another process (epoch now ${lockB.epoch}, ours ${lockA.epoch})`,
    })
    expect(lost).toHaveLength(1)
    expect(lost[0]).toBe(await refusal.catch((error: unknown) => error))
    expect(() => logA.append(turnStart('later'))).toThrow(expect.objectContaining({ name: 'KernelError', message: lost[0]?.message }))
    expect(lockA.lostError).toBe(lost[0])

    const rows = await database.sql<{ seq: string; epoch: string }>(
      `SELECT seq, epoch FROM "${schema}".events WHERE thread_id = $1 ORDER BY seq`,
      [id],
    )
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4])
    expect(rows.map((row) => Number(row.epoch))).toEqual([lockA.epoch, lockA.epoch, lockB.epoch, lockB.epoch])
    expect((await b.load(id)).events).toEqual([...before, ...afterTakeOver])
    // The old holder's release leaves the new lease alone.
    await lockA.release()
    await expect(a.lock(id)).rejects.toMatchObject({ name: 'KernelError', message: expect.stringContaining('is open in another process') })
  })

  it('a holder that renews its lease keeps the lock past several leases, and others are refused meanwhile', async () => {
    const leaseMs = 900
    const store = database.store({ leaseMs })
    const id = 'renewed-thread'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    log.append(start(id))
    await log.sync()
    const [taken] = await database.sql<{ until: Date }>(`SELECT lease_until AS until FROM "${store.schema}".threads WHERE id = $1`, [id])
    const firstLeaseEnd = taken?.until as Date
    // Three leases' worth of time, by the database's clock.
    await waitFor(async () => {
      const [row] = await database.sql<{ passed: boolean }>(
        `SELECT now() > $1::timestamptz + interval '${2 * leaseMs} milliseconds' AS passed`,
        [firstLeaseEnd],
      )
      return row?.passed === true
    }, 'three leases to pass')
    const [row] = await database.sql<{ live: boolean; epoch: string }>(
      `SELECT lease_until > now() AS live, epoch FROM "${store.schema}".threads WHERE id = $1`,
      [id],
    )
    expect(row).toEqual({ live: true, epoch: String(lock.epoch) })
    const other = database.store({ schema: store.schema })
    await expect(other.lock(id)).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`pid ${process.pid} on ${hostname()}, since .*; its lease runs until`)),
    })
    await expect(store.lock(id)).rejects.toMatchObject({ message: expect.stringContaining('is already open in this process') })
    log.append(turnStart('t1'))
    await log.sync()
    expect(lock.lostError).toBeUndefined()
    expect((await store.load(id)).events).toHaveLength(2)
  })

  it('a stalled holder learns from its own renewal, once it runs again, that its lease was taken over', async () => {
    const schema = database.freshSchema()
    const a = database.store({ schema, leaseMs: 600 })
    const b = database.store({ schema })
    const id = 'stalled-thread'
    const lockA = database.track(await a.lock(id))
    const logA = database.track(await a.create(id, lockA))
    const lost = new Promise<Error>((resolve) => logA.onLost(resolve))
    lockA.pauseRenewal()
    await leaseRunsOut(a, id)
    const lockB = database.track(await b.lock(id))
    lockA.resumeRenewal()
    expect((await lost).message).toBe(`session ${id} was taken over by another process (epoch now ${lockB.epoch}, ours ${lockA.epoch})`)
    expect(() => logA.append(start(id))).toThrow(expect.objectContaining({ name: 'KernelError' }))
  })

  it('refuses to open a log under a lock that was lost, or under another store’s lock', async () => {
    const schema = database.freshSchema()
    const a = database.store({ schema, leaseMs: 600 })
    const b = database.store({ schema })
    const id = 'lost-before-create'
    const lockA = database.track(await a.lock(id))
    lockA.pauseRenewal()
    await leaseRunsOut(a, id)
    const lockB = database.track(await b.lock(id))
    await expect(a.create(id, lockA)).rejects.toMatchObject({
      name: 'KernelError',
      message: expect.stringContaining('was taken over by another process'),
    })
    await expect(a.create(id, lockB)).rejects.toMatchObject({
      name: 'KernelError',
      message: expect.stringContaining('a lock this store took'),
    })
    await expect(b.load(id)).rejects.toMatchObject({ message: expect.stringContaining('does not exist') })
  })
})
