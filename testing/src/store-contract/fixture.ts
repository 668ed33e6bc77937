import { randomUUID } from 'node:crypto'
import type { Message, SessionEvent, SessionEventBody, SessionLock, SessionLog, SessionStore } from '@harness-kernel/kernel'
import { afterEach, beforeEach, expect } from 'vitest'

/** How a store under test is made, and how its sessions' locks are made stale. */
export interface SessionStoreHarness {
  /** A fresh, empty store for one test (its own directory, schema or database), and how to tear it down. */
  make(): Promise<{ store: SessionStore; dispose?(): Promise<void> }>
  /**
   * Makes the current holder of the session's lock look dead (its process gone, its lease run out), so that the next
   * `lock` takes it over. Without it, the take-over cases are skipped.
   */
  makeStale?(store: SessionStore, sessionId: string): Promise<void>
}

/** One test's store, and the locks and logs it opened (released and closed after the test, whatever happened). */
export interface StoreFixture {
  readonly harness: SessionStoreHarness
  readonly store: SessionStore
  lock(sessionId: string): Promise<SessionLock>
  /** A new session's lock and empty log. */
  create(sessionId: string): Promise<{ lock: SessionLock; log: SessionLog }>
  /** `store.reopen`, the log closed after the test. */
  reopen(sessionId: string, lastSeq: number, lock: SessionLock): Promise<SessionLog>
  /** A new session holding these events, its log closed and its lock released; returns the events as appended. */
  seed(sessionId: string, bodies: readonly SessionEventBody[]): Promise<SessionEvent[]>
}

export function storeFixture(harness: SessionStoreHarness): StoreFixture {
  let made: Awaited<ReturnType<SessionStoreHarness['make']>> | undefined
  let locks: SessionLock[] = []
  let logs: SessionLog[] = []
  beforeEach(async () => {
    made = await harness.make()
  })
  afterEach(async () => {
    await Promise.allSettled(logs.map((log) => log.close()))
    await Promise.allSettled(locks.map((lock) => lock.release()))
    logs = []
    locks = []
    await made?.dispose?.()
    made = undefined
  })
  const fixture: StoreFixture = {
    harness,
    get store() {
      if (made === undefined) throw new Error('the store is made for each test: use it inside `it`')
      return made.store
    },
    async lock(sessionId) {
      const lock = await fixture.store.lock(sessionId)
      locks.push(lock)
      return lock
    },
    async create(sessionId) {
      const lock = await fixture.lock(sessionId)
      const log = await fixture.store.create(sessionId, lock)
      logs.push(log)
      return { lock, log }
    },
    async reopen(sessionId, lastSeq, lock) {
      const log = await fixture.store.reopen(sessionId, lastSeq, lock)
      logs.push(log)
      return log
    },
    async seed(sessionId, bodies) {
      const { lock, log } = await fixture.create(sessionId)
      const events = bodies.map((body) => log.append(body))
      await log.close()
      await lock.release()
      return events
    },
  }
  return fixture
}

/** A session id of its own for each use: a store may be shared by more than one test. */
export const sessionId = (label: string) => `${label}-${randomUUID()}`

export const userMessage = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } })

export const assistantMessage = (text: string): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  source: { kind: 'model' },
})

/** One turn: its start, the user's prompt, the answer and its end. */
export function turn(turnId: string, prompt: string): SessionEventBody[] {
  return [
    { type: 'turn/start', turnId },
    { type: 'message', turnId, message: userMessage(prompt) },
    { type: 'message', turnId, message: assistantMessage(`answer to ${prompt}`) },
    { type: 'turn/end', turnId, status: 'completed' },
  ]
}

export const sessionStart = (id: string, cwd: string, createdAt: string): SessionEventBody => ({
  type: 'session/start',
  sessionId: id,
  cwd,
  createdAt,
})

/** Expects `work` to reject with a `KernelError` (by name: the store may load its own copy of the kernel) saying `text`. */
export async function expectKernelError(work: Promise<unknown>, text: string | RegExp): Promise<void> {
  const message = typeof text === 'string' ? expect.stringContaining(text) : expect.stringMatching(text)
  await expect(work).rejects.toMatchObject({ name: 'KernelError', message })
}
