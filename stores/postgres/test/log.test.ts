import { existsSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import type { SessionEvent } from '@harness-kernel/kernel'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { postgresStore } from '../src/index.js'
import { rejection } from './support/rejection.js'
import { useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()

const start = (id: string) => ({ type: 'session/start' as const, sessionId: id, cwd: '/w', createdAt: '2026-03-01T00:00:00.000Z' })

describe('the thread log in PostgreSQL', () => {
  it('append returns at once; sync waits for the commit; thousands of events go in batches and load back in order', async () => {
    const store = database.store()
    const id = 'many-events'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    // Another connection holds the thread's row: the writer cannot commit until it lets go, whatever the machine's speed.
    const holder = new pg.Client({ connectionString: database.server.url })
    await holder.connect()
    await holder.query('BEGIN')
    await holder.query(`SELECT id FROM "${store.schema}".threads WHERE id = $1 FOR UPDATE`, [id])
    const appended: SessionEvent[] = [log.append(start(id))]
    for (let index = 0; index < 2500; index++)
      appended.push(
        log.append({ type: 'tool/result', turnId: 't1', step: 1, callId: `c${index}`, output: 'x'.repeat(index % 97), isError: false }),
      )
    const [before] = await database.sql<{ last_seq: string }>(`SELECT last_seq FROM "${store.schema}".threads WHERE id = $1`, [id])
    expect(Number(before?.last_seq)).toBe(0)
    const synced = log.sync()
    await holder.query('COMMIT')
    await holder.end()
    await synced
    const [after] = await database.sql<{ last_seq: string }>(`SELECT last_seq FROM "${store.schema}".threads WHERE id = $1`, [id])
    expect(Number(after?.last_seq)).toBe(appended.length)
    expect((await store.load(id)).events).toEqual(appended)
  })

  it('keeps what jsonb cannot hold (U+0000, a lone surrogate) exactly as appended', async () => {
    const store = database.store()
    const id = 'odd-text'
    const lock = database.track(await store.lock(id))
    const log = database.track(await store.create(id, lock))
    const odd = [
      log.append(start(id)),
      log.append({ type: 'tool/result', turnId: 't1', step: 1, callId: 'nul', output: 'before\u0000after', isError: false }),
      log.append({ type: 'tool/result', turnId: 't1', step: 1, callId: 'surrogate', output: 'half \ud83d of an emoji', isError: false }),
      log.append({ type: 'tool/result', turnId: 't1', step: 1, callId: 'escaped', output: 'a literal \\u0000 and 😀', isError: false }),
    ]
    await log.close()
    expect((await store.load(id)).events).toEqual(odd)
    const types = await database.sql<{ type: string }>(
      `SELECT body->>'type' AS type FROM "${store.schema}".events WHERE thread_id = $1 ORDER BY seq`,
      [id],
    )
    expect(types.map((row) => row.type)).toEqual(['session/start', 'tool/result', 'tool/result', 'tool/result'])
  })

  it('a lock on a session never created leaves it nonexistent to load, summary and list', async () => {
    const store = database.store()
    const id = 'locked-only'
    database.track(await store.lock(id))
    await expect(store.load(id)).rejects.toMatchObject({
      name: 'KernelError',
      message: `no session ${id}: ${store.pathFor(id)} does not exist`,
    })
    await expect(store.summary(id)).rejects.toMatchObject({ message: expect.stringContaining('does not exist') })
    expect(await store.list()).toEqual([])
  })

  it('the process ledger: a local file written at once, the table behind it; other hosts’ records come from the table', async () => {
    const store = database.store()
    const id = 'ledger-thread'
    const lock = database.track(await store.lock(id))
    database.track(await store.create(id, lock))
    const ledger = store.processLedger(id)
    ledger.started({ pgid: 7001, command: 'sleep 100', startTicks: 12 })
    // Synchronously on disk: what a SIGKILLed kernel leaves for the next one on this host.
    expect(readFileSync(ledger.path, 'utf8')).toContain('"pgid":7001')
    await database.sql(`INSERT INTO "${store.schema}".processes (thread_id, pgid, host, record) VALUES ($1, 9001, 'other-host', $2)`, [
      id,
      JSON.stringify({ pgid: 9001, command: 'make', startedAt: '2026-03-01T00:00:00.000Z', host: 'other-host' }),
    ])
    const unfinished = await store.processLedger(id).unfinished()
    expect(unfinished).toEqual([
      expect.objectContaining({ pgid: 7001, host: hostname(), startTicks: 12 }),
      { pgid: 9001, command: 'make', startedAt: '2026-03-01T00:00:00.000Z', host: 'other-host' },
    ])
    await store.processLedger(id).clear()
    expect(existsSync(ledger.path)).toBe(false)
    expect(await database.sql(`SELECT * FROM "${store.schema}".processes WHERE thread_id = $1`, [id])).toEqual([])
  })

  it('writes this host’s records to the table behind the file, for other hosts to see, and removes them when they end', async () => {
    const store = database.store()
    const id = 'ledger-behind'
    const lock = database.track(await store.lock(id))
    database.track(await store.create(id, lock))
    const ledger = store.processLedger(id)
    const tableRows = () =>
      database.sql<{ pgid: number; host: string; record: { command: string } }>(
        `SELECT pgid, host, record FROM "${store.schema}".processes WHERE thread_id = $1 ORDER BY pgid`,
        [id],
      )
    ledger.started({ pgid: 7002, command: 'sleep 100' })
    ledger.started({ pgid: 7003, command: 'make test' })
    ledger.ended(7002)
    const rows = await waitFor(async () => {
      const found = await tableRows()
      return found.length === 1 && found[0]?.pgid === 7003 && found
    }, 'the table to have the running group only')
    expect(rows).toEqual([
      { pgid: 7003, host: hostname(), record: expect.objectContaining({ pgid: 7003, command: 'make test', host: hostname() }) },
    ])
    ledger.ended(7003)
    await waitFor(async () => (await tableRows()).length === 0, 'the table to forget the ended group')
    expect(existsSync(ledger.path)).toBe(false)
  })

  it('sets up its schema once, even when stores start together, at version 3', async () => {
    const schema = database.freshSchema()
    const stores = [database.store({ schema }), database.store({ schema }), database.store({ schema })]
    await Promise.all(stores.map((store) => store.list()))
    expect(await database.sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 3 }])
    await database.sql(`UPDATE "${schema}".schema_version SET version = 4`)
    await expect(database.store({ schema }).list()).rejects.toMatchObject({
      name: 'KernelError',
      message: expect.stringContaining(`schema "${schema}" is at version 4`),
    })
  })

  it('a wrong password: cannot reach PostgreSQL, and the password given is never in the message', async () => {
    const url = new URL(database.server.url)
    url.password = 'not-the-Password-9z'
    const store = postgresStore(url.toString(), { schema: database.freshSchema() })
    try {
      const error = await rejection(store.lock('any'))
      expect(error).toMatchObject({
        name: 'KernelError',
        message: `cannot reach PostgreSQL at postgres://postgres@127.0.0.1:${database.server.port}/postgres (no password): password authentication failed for user "postgres"`,
      })
      expect(error.message).not.toContain('not-the-Password-9z')
      expect(store.pathFor('any')).toBe(`postgres://postgres@127.0.0.1:${database.server.port}/postgres#${store.schema}.thread=any`)
    } finally {
      await store.close()
    }
  })
})
