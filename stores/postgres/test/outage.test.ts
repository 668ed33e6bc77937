import type { SessionEvent, SessionEventBody } from '@harness-kernel/kernel'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { appendThroughRestart } from './support/append-through-restart.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()

const note = (text: string): SessionEventBody => ({ type: 'notice', level: 'info', text, source: 'outage-test' })

/** Settles once a new connection to the server is refused: the server is down. */
const serverDown = () =>
  waitFor(async () => {
    const client = new pg.Client({ connectionString: database.server.url, connectionTimeoutMillis: 1000 })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.end()
      return false
    } catch {
      return true
    }
  }, 'the server to refuse connections')

const seqs = (events: SessionEvent[]) => events.map((event) => event.seq)
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

describe('a database that goes away', () => {
  it('restarted mid-log (immediate): the writer retries and every event appended is committed, in order, without gaps', async () => {
    const store = database.store({ leaseMs: 20_000 })
    const id = 'restarted-thread'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    const lost: Error[] = []
    log.onLost((error) => lost.push(error))
    const appended = [log.append({ type: 'session/start', sessionId: id, cwd: '/w', createdAt: '2026-03-01T00:00:00.000Z' })]
    await log.sync()
    appended.push(...(await appendThroughRestart(database.server, log, note)))
    appended.push(log.append(note('after')))
    await log.sync()
    expect(lost).toEqual([])
    const { events } = await store.load(id)
    expect(seqs(events)).toEqual(range(1, appended.length))
    expect(events).toEqual(appended)
  })

  it('down for a while (postmaster killed): appends wait, and are committed once it is back', async () => {
    const store = database.store({ leaseMs: 20_000 })
    const id = 'down-thread'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    const appended = [log.append({ type: 'session/start', sessionId: id, cwd: '/w', createdAt: '2026-03-01T00:00:00.000Z' })]
    await log.sync()
    database.server.kill9Postmaster()
    await serverDown()
    for (let index = 0; index < 20; index++) appended.push(log.append(note(`while down ${index}`)))
    let synced = false
    const pending = log.sync().then(() => {
      synced = true
    })
    await database.server.restart({ mode: 'immediate' })
    expect(synced).toBe(false)
    await pending
    appended.push(log.append(note('after')))
    await log.sync()
    const { events } = await store.load(id)
    expect(seqs(events)).toEqual(range(1, 22))
    expect(events).toEqual(appended)
    expect(lock.lostError).toBeUndefined()
  })

  it('down past the lease: the lock is lost (fail closed) and nothing appended after is written', async () => {
    const leaseMs = 1500
    const store = database.store({ leaseMs })
    const id = 'fail-closed-thread'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    const lost = new Promise<Error>((resolve) => log.onLost(resolve))
    const committed = log.append({ type: 'session/start', sessionId: id, cwd: '/w', createdAt: '2026-03-01T00:00:00.000Z' })
    await log.sync()
    database.server.kill9Postmaster()
    await serverDown()
    log.append(note('never written'))
    const refused = log.sync()
    const error = await lost
    expect(error).toMatchObject({ name: 'KernelError' })
    expect(error.message).toMatch(
      new RegExp(
        `^session ${id}: PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:\\d+/postgres \\(no password\\) could not be reached before its lease \\(${leaseMs} ms\\) ran out: .+$`,
      ),
    )
    expect(error.message).not.toContain(database.server.password)
    await expect(refused).rejects.toBe(error)
    expect(() => log.append(note('after the loss'))).toThrow(error.message)
    await database.server.restart({ mode: 'immediate' })
    expect((await store.load(id)).events).toEqual([committed])
    // The lease has run out by now: another process takes the session over.
    const other = database.store({ schema: store.schema })
    const next = database.track(await other.lock(id))
    expect(next.epoch).toBe(lock.epoch + 1)
  })
})
