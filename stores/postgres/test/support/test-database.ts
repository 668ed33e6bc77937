import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionLock, SessionLog } from '@harness-kernel/kernel'
import { type PostgresServer, startPostgres } from '@harness-kernel/testing/postgres'
import pg from 'pg'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { type PostgresSessionStore, type PostgresStoreOptions, postgresStore } from '../../src/index.js'

/** The test file's PostgreSQL server, a client for checks, and stores each in a schema of its own. */
export interface TestDatabase {
  readonly server: PostgresServer
  /** Runs a statement as the server's superuser, on a connection of its own. */
  sql<Row extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>
  /** A new schema name, unused so far. */
  freshSchema(): string
  /**
   * A store on the server (as its superuser, unless `url` says otherwise): in a fresh schema unless one is given; closed
   * after the test, with its logs and locks.
   */
  store(options?: PostgresStoreOptions & { url?: string }): PostgresSessionStore
  /** Closes the log and releases the lock after the test, whatever happens. */
  track<T extends SessionLog | SessionLock>(opened: T): T
}

let schemas = 0

/** Starts one server for the test file (beforeAll) and stops it after (afterAll). */
export function useTestDatabase(): TestDatabase {
  let server: PostgresServer | undefined
  let admin: pg.Pool | undefined
  let localDir = ''
  let stores: PostgresSessionStore[] = []
  let opened: (SessionLog | SessionLock)[] = []
  beforeAll(async () => {
    localDir = mkdtempSync(join(tmpdir(), 'store-postgres-ledgers-'))
    server = await startPostgres()
    admin = new pg.Pool({ connectionString: server.url, max: 2 })
    admin.on('error', () => {})
  })
  afterEach(async () => {
    await Promise.allSettled(opened.map((item) => ('append' in item ? item.close() : item.release())))
    await Promise.allSettled(stores.map((store) => store.close()))
    opened = []
    stores = []
  })
  afterAll(async () => {
    await admin?.end()
    await server?.stop()
    if (localDir !== '') rmSync(localDir, { recursive: true, force: true })
  })
  const database: TestDatabase = {
    get server() {
      if (server === undefined) throw new Error('the server starts in beforeAll')
      return server
    },
    async sql(text, values) {
      if (admin === undefined) throw new Error('the server starts in beforeAll')
      return (await admin.query(text, values)).rows
    },
    freshSchema: () => `test_${process.pid}_${++schemas}`,
    store({ url, ...options } = {}) {
      const store = postgresStore(url ?? database.server.url, { schema: database.freshSchema(), localDir, ...options })
      stores.push(store)
      return store
    },
    track(item) {
      opened.push(item)
      return item
    },
  }
  return database
}
