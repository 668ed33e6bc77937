import { SESSION_STORE_SPEC } from '@harness-kernel/kernel'
import { describe } from 'vitest'
import { type SessionStoreHarness, storeFixture } from './store-contract/fixture.js'
import { forkCases } from './store-contract/fork-cases.js'
import { ledgerCases } from './store-contract/ledger-cases.js'
import { lockCases } from './store-contract/lock-cases.js'
import { logCases } from './store-contract/log-cases.js'
import { summaryCases } from './store-contract/summary-cases.js'

export type { SessionStoreHarness } from './store-contract/fixture.js'

/**
 * The `SessionStore` contract (`session-store-v2`) as vitest cases, for any store: its log (numbering, round trip,
 * reopen), summaries, names and archives, forks, the lock (and, for a store that fences, the loss of a log whose lock
 * was taken over) and the process ledger. Call it at the top level of a test file:
 *
 * ```ts
 * describeSessionStore('JsonlSessionStore', { make: async () => ({ store: new JsonlSessionStore(tempDir()) }) })
 * ```
 */
export function describeSessionStore(name: string, harness: SessionStoreHarness): void {
  describe(`${name} implements ${SESSION_STORE_SPEC}`, () => {
    const fixture = storeFixture(harness)
    describe('the log', () => logCases(fixture))
    describe('summaries, names and archives', () => summaryCases(fixture))
    describe('forks', () => forkCases(fixture))
    describe('the lock', () => lockCases(fixture))
    describe('the process ledger', () => ledgerCases(fixture))
  })
}
