export { describeDatabaseUrl } from './database-url.js'
export { DEFAULT_FOLLOW_POLL_MS, DEFAULT_POLL_MS, type PostgresFleetOptions } from './fleet/fleet-options.js'
export { inboxChannel } from './fleet/inbox-channel.js'
export type {
  FleetHolder,
  InboxInterruptPayload,
  InboxItem,
  InboxKind,
  InboxState,
  InboxSteerPayload,
} from './fleet/inbox-item.js'
export { type InboxWatch, PostgresFleet } from './fleet/postgres-fleet.js'
export { PostgresSessionLock } from './lease-lock.js'
export { PostgresProcessLedger } from './postgres-process-ledger.js'
export { PostgresSessionStore, postgresStore } from './postgres-store.js'
export { DEFAULT_LEASE_MS, DEFAULT_SCHEMA, type PostgresStoreOptions } from './store-options.js'
