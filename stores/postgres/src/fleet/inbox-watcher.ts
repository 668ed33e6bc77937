import type { Database } from '../database.js'
import { threadsWithOpenRows } from './inbox-statements.js'
import { NotificationListener } from './notification-listener.js'
import { startPolling } from './polling.js'

/**
 * A listener on the inbox channel that wakes a thread per notification, and a poll every `pollMs` that wakes each
 * thread with open rows: a notification sent while the listener was reconnecting is lost, the row is not. After every
 * (re)connect, once `LISTEN` holds, the listener's connection wakes every thread with open rows: a row accepted before
 * that was either seen then or is notified after.
 */
export class InboxWatcher {
  /** Settles once `LISTEN` first holds and the threads with open rows were woken (or at `close`). */
  readonly ready: Promise<void>
  readonly #wake: (threadId: string) => void
  readonly #listener: NotificationListener
  readonly #poll: { stop(): void }
  #closed = false

  constructor(db: Database, channel: string, pollMs: number, wake: (threadId: string) => void) {
    this.#wake = wake
    this.#listener = new NotificationListener(db, channel, {
      listening: async (client) => this.#wakeAll(await threadsWithOpenRows(client, db.tables)),
      notified: (threadId) => {
        if (threadId) this.#wakeSafely(threadId)
      },
    })
    this.ready = this.#listener.ready
    // On the pool: the listener's connection may be the one that is down.
    this.#poll = startPolling(pollMs, async () => this.#wakeAll(await threadsWithOpenRows(db, db.tables)))
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#poll.stop()
    await this.#listener.close()
  }

  #wakeAll(threads: readonly string[]): void {
    if (!this.#closed) for (const threadId of threads) this.#wakeSafely(threadId)
  }

  #wakeSafely(threadId: string): void {
    try {
      this.#wake(threadId)
    } catch {
      // A waker that throws is its caller's failure; it must not stop the wakes of other threads, nor the listener.
    }
  }
}
