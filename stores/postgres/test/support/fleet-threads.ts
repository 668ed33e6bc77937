import type { SessionEventBody } from '@harness-kernel/kernel'
import type { InboxItem, PostgresSessionLock, PostgresSessionStore } from '../../src/index.js'
import type { TestDatabase } from './test-database.js'
import { waitFor } from './wait-for.js'

export const sessionStart = (id: string): SessionEventBody => ({
  type: 'session/start',
  sessionId: id,
  cwd: '/work',
  createdAt: '2026-03-01T00:00:00.000Z',
})

/** A thread with a log (lock, create, its session/start committed), as a kernel opens one. */
export async function openThread(database: TestDatabase, store: PostgresSessionStore, id: string) {
  const lock = database.track(await store.lock(id))
  const log = database.track(await store.create(id, lock))
  log.append(sessionStart(id))
  await log.sync()
  return { lock, log }
}

export function steerItem(id: string, threadId: string, text = `steer ${id}`): InboxItem {
  return {
    id,
    threadId,
    kind: 'steer',
    payload: { input: [{ type: 'text', text }], expectedTurnId: 'turn-1', clientUserMessageId: null },
    acceptedBy: 'front-end-1',
  }
}

/** Polls the database's clock until the lock's lease has run out (its holder stopped renewing it). */
export function leaseRunsOut(database: TestDatabase, store: PostgresSessionStore, lock: PostgresSessionLock) {
  lock.pauseRenewal()
  return waitFor(async () => {
    const [row] = await database.sql<{ expired: boolean }>(
      `SELECT lease_until <= now() AS expired FROM "${store.schema}".threads WHERE id = $1`,
      [lock.sessionId],
    )
    return row?.expired === true
  }, `the lease of ${lock.sessionId} to run out`)
}

/** The states of a schema's inbox rows, by id. */
export async function inboxStates(database: TestDatabase, schema: string): Promise<Record<string, string>> {
  const rows = await database.sql<{ id: string; state: string }>(`SELECT id, state FROM "${schema}".inbox ORDER BY id`)
  return Object.fromEntries(rows.map((row) => [row.id, row.state]))
}
