import type { Client } from 'pg'
import type { Database } from '../database.js'

/** Waits between tries to connect the listener again: doubling, up to the cap. */
const FIRST_RECONNECT_MS = 100
const MAX_RECONNECT_MS = 5000

export interface ListenerHooks {
  /**
   * Runs on the listener's connection after every (re)connect, once `LISTEN` holds: what was written before is seen
   * here, what is written after is notified. A throw counts as a lost connection (connected again, hook run again).
   */
  listening(client: Client): Promise<void>
  /** A notification's payload on the channel. A throw is ignored. */
  notified(payload: string): void
}

/**
 * One connection of its own that `LISTEN`s on a channel. A lost connection (a restart, a network failure, a
 * `pg_terminate_backend`) is connected again with a growing pause; no error of it reaches the process. Its timers do
 * not keep the process alive; its connection does, until `close`.
 */
export class NotificationListener {
  /** Settles once `listening` first succeeded (or at `close`). */
  readonly ready: Promise<void>
  readonly #db: Database
  readonly #channel: string
  readonly #hooks: ListenerHooks
  #resolveReady: () => void = () => {}
  #client: Client | undefined
  #reconnect: NodeJS.Timeout | undefined
  #failures = 0
  #closed = false

  constructor(db: Database, channel: string, hooks: ListenerHooks) {
    this.#db = db
    this.#channel = channel
    this.#hooks = hooks
    this.ready = new Promise((resolve) => {
      this.#resolveReady = resolve
    })
    void this.#connect()
  }

  get closed(): boolean {
    return this.#closed
  }

  async close(): Promise<void> {
    this.#closed = true
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
        if (message.channel !== this.#channel || this.#closed) return
        try {
          this.#hooks.notified(message.payload ?? '')
        } catch {
          // A handler that throws is its caller's failure; it must not stop the listener.
        }
      })
      this.#client = connection
      await connection.connect()
      await connection.query(`LISTEN "${this.#channel}"`)
      if (this.#closed) return
      await this.#hooks.listening(connection)
      if (this.#closed) return
      this.#failures = 0
      this.#resolveReady()
    } catch {
      this.#lost(client)
    }
  }

  /** The connection failed (once per connection, whichever of `error`, `end` or a query says it first). */
  #lost(client: Client | undefined): void {
    if (client !== undefined && client !== this.#client) return
    this.#client = undefined
    void client?.end().catch(() => undefined)
    if (this.#closed || this.#reconnect !== undefined) return
    const wait = Math.min(MAX_RECONNECT_MS, FIRST_RECONNECT_MS * 2 ** this.#failures++)
    this.#reconnect = setTimeout(() => void this.#connect(), wait)
    this.#reconnect.unref()
  }
}
