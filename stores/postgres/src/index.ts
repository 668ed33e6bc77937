export { describeDatabaseUrl } from './database-url.js'
export type { AskHandlers } from './fleet/ask-watch.js'
export { asksChannel, inboxChannel } from './fleet/channels.js'
export { DEFAULT_FOLLOW_POLL_MS, DEFAULT_POLL_MS, type PostgresFleetOptions } from './fleet/fleet-options.js'
export type {
  FleetHolder,
  HostInputSettings,
  InboxInterruptPayload,
  InboxItem,
  InboxKind,
  InboxState,
  InboxSteerPayload,
} from './fleet/inbox-item.js'
export { type AsksWatch, type FleetStore, type InboxWatch, PostgresFleet } from './fleet/postgres-fleet.js'
export type { AskState, RelayedAnswer, RelayedEnd, RelayedRequest } from './fleet/relayed-request.js'
export { PostgresSessionLock } from './lease-lock.js'
export { PostgresProcessLedger } from './postgres-process-ledger.js'
export { PostgresSessionStore, postgresStore } from './postgres-store.js'
export { DEFAULT_LEASE_MS, DEFAULT_SCHEMA, type PostgresStoreOptions } from './store-options.js'
