import type { SessionEvent } from '@harness-kernel/kernel'
import { postgresStore } from '@harness-kernel/store-postgres'

/**
 * A watcher on another "process": a store instance of its own following a thread's events from the start, through
 * whatever happens to the server (a restart: it catches up from its cursor).
 */
export class LogWatcher {
  readonly events: SessionEvent[] = []
  readonly #store: ReturnType<typeof postgresStore>
  readonly #abort = new AbortController()
  readonly #following: Promise<void>
  #failure: unknown

  constructor(url: string, schema: string, threadId: string) {
    this.#store = postgresStore(url, { schema })
    this.#following = this.#store
      .fleet({ followPollMs: 50 })
      .follow(threadId, 0, (events) => this.events.push(...events), this.#abort.signal)
      .catch((error: unknown) => {
        this.#failure = error
      })
  }

  /** Set when the follower stopped with an error (the oracle reports it). */
  get failure(): unknown {
    return this.#failure
  }

  get lastSeq(): number {
    return this.events.at(-1)?.seq ?? 0
  }

  /** The turn the log has open, as far as this watcher has read it. */
  get openTurnId(): string | undefined {
    let open: string | undefined
    for (const event of this.events) {
      if (event.type === 'turn/start') open = event.turnId
      else if (event.type === 'turn/end' && event.turnId === open) open = undefined
    }
    return open
  }

  async close(): Promise<void> {
    this.#abort.abort()
    await this.#following
    await this.#store.close()
  }
}
