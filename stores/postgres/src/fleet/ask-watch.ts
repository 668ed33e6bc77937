import type { Client } from 'pg'
import type { Database } from '../database.js'
import type { Queryable } from '../thread-statements.js'
import { parseNote } from './ask-notes.js'
import { readAsks, sendPending, unsend } from './ask-statements.js'
import { NotificationListener } from './notification-listener.js'
import { startPolling } from './polling.js'
import { presenceKey, takePresence } from './presence.js'
import type { RelayedEnd, RelayedRequest } from './relayed-request.js'

export interface AskHandlers {
  onAsk(request: RelayedRequest): void
  onEnd(id: string, end: RelayedEnd): void
}

export interface AskWatchOptions {
  db: Database
  channel: string
  /** The raw schema name, for the presence key. */
  schema: string
  instance: string
  pollMs: number
}

/**
 * The front-end's side of relayed requests. Its listener's connection holds the instance's presence lock (taken again
 * after every reconnect; a connection that cannot take it, held by another session still, is dropped and tried again)
 * and hears the notes for this instance. Each `pending` row for it is marked `sent` and delivered once, oldest first:
 * after every (re)connect, on an `asked` note, and every `pollMs`. Each request delivered has its end delivered once:
 * on an end note, or found by the same reconnect and poll (the safety net for a note lost while reconnecting).
 */
export class AskWatch {
  /** Settles once `LISTEN` first holds, presence is held and the pending requests were delivered (or at `close`). */
  readonly ready: Promise<void>
  readonly #options: AskWatchOptions
  readonly #handlers: AskHandlers
  readonly #listener: NotificationListener
  readonly #poll: { stop(): void }
  /** Delivered, not yet ended. */
  readonly #outstanding = new Set<string>()
  /** Deliveries one after another, so requests reach `onAsk` in order. */
  #sending: Promise<void> = Promise.resolve()
  #closed = false

  constructor(options: AskWatchOptions, handlers: AskHandlers) {
    this.#options = options
    this.#handlers = handlers
    const { db, channel, schema, instance, pollMs } = options
    const key = presenceKey(schema, instance)
    this.#listener = new NotificationListener(db, channel, {
      listening: async (client: Client) => {
        if (!(await takePresence(client, key))) throw new Error(`the presence of ${instance} is held by another session`)
        await this.#sendPending(client)
        await this.#findEnds(client)
      },
      notified: (payload) => {
        const note = parseNote(payload)
        if (note?.to !== instance) return
        if (note.event === 'asked') this.#sendPending(db).catch(() => undefined)
        else if (note.event !== 'answered') this.#ended(note.id, note.event)
      },
    })
    this.ready = this.#listener.ready
    this.#poll = startPolling(pollMs, async () => {
      await this.#sendPending(db)
      await this.#findEnds(db)
    })
  }

  /** Ends the watch: its connection goes, and with it the instance's presence. */
  async close(): Promise<void> {
    this.#closed = true
    this.#poll.stop()
    await this.#listener.close()
    await this.#sending
  }

  #sendPending(db: Queryable): Promise<void> {
    const sending = this.#sending.then(async () => {
      if (this.#closed) return
      const requests = await sendPending(db, this.#options.db.tables, this.#options.instance)
      if (this.#closed) {
        if (requests.length > 0)
          await unsend(
            this.#options.db,
            requests.map((request) => request.id),
          )
        return
      }
      for (const request of requests) {
        this.#outstanding.add(request.id)
        try {
          this.#handlers.onAsk(request)
        } catch {
          // A handler that throws is its caller's failure; the next requests are still delivered.
        }
      }
    })
    this.#sending = sending.catch(() => undefined)
    return sending
  }

  async #findEnds(db: Queryable): Promise<void> {
    if (this.#outstanding.size === 0) return
    for (const row of await readAsks(db, this.#options.db.tables, [...this.#outstanding]))
      if (row.state === 'expired' || row.state === 'resolved') this.#ended(row.id, row.state)
  }

  #ended(id: string, end: RelayedEnd): void {
    if (this.#closed || !this.#outstanding.delete(id)) return
    try {
      this.#handlers.onEnd(id, end)
    } catch {
      // As for onAsk: the watch goes on.
    }
  }
}
