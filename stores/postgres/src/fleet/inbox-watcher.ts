import type { Client } from 'pg'
import type { Database } from '../database.js'
import { threadsWithOpenRows } from './inbox-statements.js'

/** Waits between tries to connect the listener again: doubling, up to the cap. */
const FIRST_RECONNECT_MS = 100
const MAX_RECONNECT_MS = 5000

/**
 * One connection of its own that `LISTEN`s on the inbox channel and wakes a thread per notification, and a poll every
 * `pollMs` that wakes each thread with open rows: a notification sent while the listener was reconnecting is lost, the
 * row is not. After every (re)connect, once `LISTEN` holds, the same connection wakes every thread with open rows: a
 * row accepted before that was either seen then or is notified after. A lost connection (a restart, a network
 * failure) is connected again with a growing pause; no error of it reaches the process. Its timers do not keep the
 * process alive.
 */
export class InboxWatcher {
  /** Settles once `LISTEN` first holds and the threads with open rows were woken (or at `close`). */
  readonly ready: Promise<void>
  readonly #db: Database
  readonly #channel: string
  readonly #wake: (threadId: string) => void
  readonly #poll: NodeJS.Timeout
  #resolveReady: () => void = () => {}
  #client: Client | undefined
  #reconnect: NodeJS.Timeout | undefined
  #failures = 0
  #polling = false
  #closed = false

  constructor(db: Database, channel: string, pollMs: number, wake: (threadId: string) => void) {
    this.#db = db
    this.#channel = channel
    this.#wake = wake
    this.ready = new Promise((resolve) => {
      this.#resolveReady = resolve
    })
    this.#poll = setInterval(() => void this.#pollOnce(), pollMs)
    this.#poll.unref()
    void this.#connect()
  }

  async close(): Promise<void> {
    this.#closed = true
    clearInterval(this.#poll)
    clearTimeout(this.#reconnect)
    this.#resolveReady()
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => undefined)
  }

  async #connect(): Promise<void> {
    this.#reconnect = undefined
    let client: Client | undefined
    try {
      client = await this.#db.dedicatedClient()
      if (this.#closed) return
      const connection = client
      connection.on('error', () => this.#lost(connection))
      connection.on('end', () => this.#lost(connection))
      connection.on('notification', (message) => {
        if (message.channel === this.#channel && message.payload) this.#wakeSafely(message.payload)
      })
      this.#client = connection
      await connection.connect()
      await connection.query(`LISTEN "${this.#channel}"`)
      if (this.#closed) return
      const threads = await threadsWithOpenRows(connection, this.#db.tables)
      if (this.#closed) return
      this.#failures = 0
      for (const threadId of threads) this.#wakeSafely(threadId)
      this.#resolveReady()
    } catch {
      this.#lost(client)
    }
  }

  /** The listener's connection failed (once per connection, whichever of `error`, `end` or a query says it first). */
  #lost(client: Client | undefined): void {
    if (client !== undefined && client !== this.#client) return
    this.#client = undefined
    void client?.end().catch(() => undefined)
    if (this.#closed || this.#reconnect !== undefined) return
    const wait = Math.min(MAX_RECONNECT_MS, FIRST_RECONNECT_MS * 2 ** this.#failures++)
    this.#reconnect = setTimeout(() => void this.#connect(), wait)
    this.#reconnect.unref()
  }

  /** The safety net: wakes every thread with open rows. On the pool: the listener's connection may be the one that is down. */
  async #pollOnce(): Promise<void> {
    if (this.#polling || this.#closed) return
    this.#polling = true
    try {
      const threads = await threadsWithOpenRows(this.#db, this.#db.tables)
      if (!this.#closed) for (const threadId of threads) this.#wakeSafely(threadId)
    } catch {
      // The database is out of reach for now: the next poll, or the listener's reconnect, tries again.
    } finally {
      this.#polling = false
    }
  }

  #wakeSafely(threadId: string): void {
    try {
      this.#wake(threadId)
    } catch {
      // A waker that throws is its caller's failure; it must not stop the wakes of other threads, nor the listener.
    }
  }
}
