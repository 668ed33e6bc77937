import { describeSessionStore } from '@harness-kernel/testing/session-store-contract'
import { MemorySessionStore } from './support/memory-session-store.js'

// The fake store of the lost-session tests fences as a database store does: the suite's take-over cases run in full.
describeSessionStore('MemorySessionStore (a fencing fake)', {
  make: async () => ({ store: new MemorySessionStore() }),
  makeStale: async (store, sessionId) => (store as MemorySessionStore).makeStale(sessionId),
})
