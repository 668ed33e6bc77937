import { KernelError, type SessionEvent } from '@harness-kernel/kernel'
import type { Database } from '../database.js'
import { readLiveHolder } from '../lease-statements.js'
import { followEvents } from './event-follower.js'
import { DEFAULT_FOLLOW_POLL_MS, DEFAULT_POLL_MS, type PostgresFleetOptions } from './fleet-options.js'
import { inboxChannel } from './inbox-channel.js'
import type { FleetHolder, InboxItem, InboxState } from './inbox-item.js'
import { acceptItem, claimItems, itemState, orphanThreads, releaseItems, settleItems } from './inbox-statements.js'
import { InboxWatcher } from './inbox-watcher.js'

/** What `watchInbox` returns: `close` ends the watch; `ready` settles once it listens (and woke what was waiting). */
export interface InboxWatch {
  readonly ready: Promise<void>
  close(): Promise<void>
}

/**
 * The store's side of a fleet of processes sharing its database (the App Server's `FleetPort`): the steering inbox
 * that carries input to a thread's lease holder, its claims under that lease, and followers of threads' logs. Get one
 * with `store.fleet()`; it uses the store's pool, plus one connection of its own while something watches the inbox.
 */
export class PostgresFleet {
  /** The store's instance id: the one its leases carry (`holder->>'instance'`). */
  readonly instance: string
  /** The `NOTIFY` channel of the schema's inbox: `<schema>_inbox`. */
  readonly channel: string
  readonly #db: Database
  readonly #pollMs: number
  readonly #followPollMs: number
  readonly #wakers = new Set<(threadId: string) => void>()
  /** Aborted by `close`: ends the followers. */
  readonly #closing = new AbortController()
  #watcher: InboxWatcher | undefined

  constructor(db: Database, schema: string, instance: string, options: PostgresFleetOptions = {}) {
    this.#db = db
    this.instance = instance
    this.channel = inboxChannel(schema)
    this.#pollMs = positive('pollMs', options.pollMs ?? DEFAULT_POLL_MS)
    this.#followPollMs = positive('followPollMs', options.followPollMs ?? DEFAULT_FOLLOW_POLL_MS)
  }

  /** Records the input once per id and wakes the thread's watchers; refuses a thread that has no log (`no thread <id>`). */
  accept(item: InboxItem): Promise<{ state: InboxState; duplicate: boolean }> {
    return acceptItem(this.#db, this.channel, item)
  }

  /** The thread's open rows, oldest first, claimed under this instance's live lease on it; none without one. */
  claim(threadId: string): Promise<InboxItem[]> {
    return claimItems(this.#db, threadId, this.instance)
  }

  /** This instance's claimed rows back to pending, unless their thread was taken over since. */
  release(ids: readonly string[]): Promise<void> {
    return ids.length === 0 ? Promise.resolve() : releaseItems(this.#db, ids, this.instance)
  }

  /** Settles rows no log event records; a row already settled keeps its state. */
  async settle(ids: readonly string[], state: 'recorded' | 'dropped'): Promise<void> {
    if (state !== 'recorded' && state !== 'dropped') throw new KernelError(`an inbox row settles as recorded or dropped, not ${state}`)
    if (ids.length > 0) await settleItems(this.#db, ids, state)
  }

  stateOf(id: string): Promise<InboxState | undefined> {
    return itemState(this.#db, id)
  }

  /**
   * Calls `wake(threadId)` on each `NOTIFY` of the schema's inbox channel, and every `pollMs` for each thread with
   * pending rows or rows claimed under an older epoch. All the watches of one fleet share one connection.
   */
  watchInbox(wake: (threadId: string) => void): InboxWatch {
    // Its connection would outlive the close that should have ended it.
    if (this.#closing.signal.aborted) throw new KernelError('store.fleet: watchInbox on a fleet that was closed')
    const waker = (threadId: string) => wake(threadId)
    this.#wakers.add(waker)
    this.#watcher ??= new InboxWatcher(this.#db, this.channel, this.#pollMs, (threadId) => {
      for (const each of [...this.#wakers])
        try {
          each(threadId)
        } catch {
          // A waker that throws is its caller's failure; the other watches still hear of the thread.
        }
    })
    const watcher = this.#watcher
    return {
      ready: watcher.ready,
      close: async () => {
        this.#wakers.delete(waker)
        if (this.#wakers.size > 0 || this.#watcher !== watcher) return
        this.#watcher = undefined
        await watcher.close()
      },
    }
  }

  /** Threads with pending or claimed rows whose lease is free or ran out: ones a process should take over. */
  orphans(): Promise<string[]> {
    return orphanThreads(this.#db)
  }

  /** The live holder of the thread's lease, if any. */
  async holder(threadId: string): Promise<FleetHolder | undefined> {
    const found = await readLiveHolder(this.#db, threadId)
    return found === undefined ? undefined : { pid: found.pid, host: found.host, instance: found.instance, epoch: found.epoch }
  }

  /** Calls `onEvents` with the thread's events after `afterSeq`, in order and each once, until `signal` aborts (or `close`). */
  follow(threadId: string, afterSeq: number, onEvents: (events: SessionEvent[]) => void, signal: AbortSignal): Promise<void> {
    const stop = AbortSignal.any([signal, this.#closing.signal])
    return followEvents(this.#db, { threadId, afterSeq, onEvents, signal: stop, pollMs: this.#followPollMs })
  }

  /** Ends the watches and the followers (they resolve), for good. The store's `close` closes its fleets first. */
  async close(): Promise<void> {
    this.#closing.abort()
    this.#wakers.clear()
    const watcher = this.#watcher
    this.#watcher = undefined
    await watcher?.close()
  }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new KernelError(`store.fleet: ${name} must be a positive number of milliseconds, got ${value}`)
  return value
}
