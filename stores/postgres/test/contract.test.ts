import { describeSessionStore } from '@harness-kernel/testing/session-store-contract'
import type { PostgresSessionStore } from '../src/index.js'
import { useTestDatabase } from './support/test-database.js'

const database = useTestDatabase()

describeSessionStore('PostgresSessionStore', {
  make: async () => ({ store: database.store() }),
  // The holder's lease runs out now, by the database's clock: the next `lock` takes it over.
  async makeStale(store, sessionId) {
    const { schema } = store as PostgresSessionStore
    await database.sql(`UPDATE "${schema}".threads SET lease_until = now() - interval '1 second' WHERE id = $1`, [sessionId])
  },
})
