/**
 * A bug the chaos test found (seed 740742161, the owner SIGSTOPped while it committed a batch): a lease holder that
 * stalls inside a write transaction (stopped, a long pause, a frozen VM) keeps the thread's row locked from its fenced
 * UPDATE on, so once its lease has run out by the database's clock no process can take the thread over: the taker's
 * statement waited on the row lock for as long as the holder stayed stalled. Fixed: the store's connections have
 * `idle_in_transaction_session_timeout` at half the lease (the server ends the stalled transaction) and `lock_timeout`
 * at the lease (a take-over never waits forever).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { postgresStore } from '@harness-kernel/store-postgres'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ThreadDb, until } from './support/thread-db.js'

const WRITER = fileURLToPath(new URL('./fixtures/stalled-writer.mjs', import.meta.url))
const LEASE_MS = 1500

let postgres: PostgresServer
let writer: ChildProcess | undefined
beforeAll(async () => {
  postgres = await startPostgres()
})
afterAll(async () => {
  writer?.kill('SIGKILL')
  await postgres?.stop()
})

describe('a lease holder stalled inside a write transaction', () => {
  it('is taken over once its lease has run out', async () => {
    const schema = 'stalled_writer'
    const threadId = 'stalled-thread'
    writer = spawn(process.execPath, [WRITER, postgres.url, schema, threadId, String(LEASE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] })
    writer.stdout!.setEncoding('utf8')
    await once(writer.stdout!, 'data')
    const db = new ThreadDb(postgres.url, schema)
    const taker = postgresStore(postgres.url, { schema, leaseMs: LEASE_MS })
    let taken: Promise<string> | undefined
    try {
      await until(async () => (await db.holder(threadId))?.live === false, 'the stalled holder’s lease to run out', 10_000)
      taken = taker.lock(threadId).then((lock) => lock.release().then(() => 'taken over'))
      const outcome = await Promise.race([taken, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000))])
      expect(outcome, await db.activity()).toBe('taken over')
    } finally {
      // The stalled transaction ends with its process; only then does the take-over go through.
      writer.kill('SIGKILL')
      await taken?.catch(() => {})
      await taker.close()
      await db.close()
    }
  }, 30_000)
})
