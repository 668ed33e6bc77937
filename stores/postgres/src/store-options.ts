import type { Clock } from '@harness-kernel/kernel'
import type { Pool } from 'pg'

export interface PostgresStoreOptions {
  /** How long a session's lock lasts without renewal; its holder renews it every third of that. Default 15000. */
  leaseMs?: number
  /** The PostgreSQL schema of the store's tables, made on first use. Default `harness`. */
  schema?: string
  /**
   * A `pg` pool to use instead of one of the store's own (the connection given first then only names the database in
   * addresses and messages). The store never ends it. Give it an `error` listener: an idle connection that dies is
   * reported there.
   */
  pool?: Pool
  /** The time of events (`at`) and forks. Default: the system clock. Leases use the database's clock. */
  clock?: Clock
  /** Where the local process ledgers are (`<session>.processes`). Default `~/.harness/postgres-ledger/<schema>/`. */
  localDir?: string
}

export const DEFAULT_LEASE_MS = 15_000
export const DEFAULT_SCHEMA = 'harness'
