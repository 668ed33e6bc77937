import { KernelError, type SessionEvent } from '@harness-kernel/kernel'
import type { Database } from '../database.js'
import { readLiveHolder } from '../lease-statements.js'
import { type Answer, answerAsk, endAskRow, insertAsk } from './ask-statements.js'
import { ABORTED, AskWaits, FLEET_CLOSED } from './ask-waits.js'
import { type AskHandlers, AskWatch } from './ask-watch.js'
import { asksChannel, inboxChannel } from './channels.js'
import { followEvents } from './event-follower.js'
import { DEFAULT_FOLLOW_POLL_MS, DEFAULT_POLL_MS, type PostgresFleetOptions } from './fleet-options.js'
import type { FleetHolder, InboxItem, InboxState } from './inbox-item.js'
import { acceptItem, claimItems, itemState, orphanThreads, releaseItems, settleItems } from './inbox-statements.js'
import { InboxWatcher } from './inbox-watcher.js'
import { readOpenTurn } from './open-turn.js'
import type { RelayedAnswer, RelayedEnd, RelayedRequest } from './relayed-request.js'

/** What `watchInbox` returns: `close` ends the watch; `ready` settles once it listens (and woke what was waiting). */
export interface InboxWatch {
  readonly ready: Promise<void>
  close(): Promise<void>
}

/** What `watchAsks` returns: `close` ends the watch (and the instance's presence); `ready` settles once it is present. */
export interface AsksWatch {
  readonly ready: Promise<void>
  close(): Promise<void>
}

/** The store the fleet serves, as the fleet needs it. */
export interface FleetStore {
  /** The raw schema name. */
  schema: string
  instance: string
  /** How long a front-end's presence may be missing before the requests relayed to it go unanswered. */
  leaseMs: number
}

/** The stores (by their database) whose instance has its asks watched: one watch per instance. */
const watchingAsks = new WeakSet<Database>()

/**
 * The store's side of a fleet of processes sharing its database (the App Server's `FleetPort`): the steering inbox
 * that carries input to a thread's lease holder, its claims under that lease, followers of threads' logs, and server
 * requests relayed between a thread's owner and a front-end. Get one with `store.fleet()`; it uses the store's pool,
 * plus a connection of its own for each of: watching the inbox, watching asks, waiting for answers.
 */
export class PostgresFleet {
  /** The store's instance id: the one its leases carry (`holder->>'instance'`). */
  readonly instance: string
  /** The `NOTIFY` channel of the schema's inbox: `<schema>_inbox`. */
  readonly channel: string
  /** The `NOTIFY` channel of the schema's relayed requests: `<schema>_asks`. */
  readonly asksChannel: string
  readonly #db: Database
  readonly #schema: string
  readonly #pollMs: number
  readonly #followPollMs: number
  readonly #wakers = new Set<(threadId: string) => void>()
  /** Aborted by `close`: ends the followers. */
  readonly #closing = new AbortController()
  readonly #waits: AskWaits
  #watcher: InboxWatcher | undefined
  #asksWatch: AskWatch | undefined

  constructor(db: Database, store: FleetStore, options: PostgresFleetOptions = {}) {
    this.#db = db
    this.#schema = store.schema
    this.instance = store.instance
    this.channel = inboxChannel(store.schema)
    this.asksChannel = asksChannel(store.schema)
    this.#pollMs = positive('pollMs', options.pollMs ?? DEFAULT_POLL_MS)
    this.#followPollMs = positive('followPollMs', options.followPollMs ?? DEFAULT_FOLLOW_POLL_MS)
    this.#waits = new AskWaits({
      db,
      channel: this.asksChannel,
      schema: store.schema,
      instance: store.instance,
      pollMs: this.#pollMs,
      leaseMs: store.leaseMs,
    })
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

  /** The turn the thread's log has open (its last `turn/start` without a `turn/end`), if any, as committed now. */
  openTurn(threadId: string): Promise<string | undefined> {
    return readOpenTurn(this.#db, this.#db.tables, threadId)
  }

  /**
   * The owner's side of a relayed request: writes it (`pending`) and notifies its front-end, then settles with the
   * connection's answer; or `unanswered` when `signal` aborts (the row is left for `endAsk`), when the fleet closes, or
   * when the front-end is gone (its presence missing for longer than the store's `leaseMs`: the row then `expired`).
   * Rejects when the row cannot be written: no such thread, an id asked before, the database out of reach.
   */
  async ask(request: RelayedRequest, signal: AbortSignal): Promise<RelayedAnswer> {
    if (this.#closing.signal.aborted) return { unanswered: FLEET_CLOSED }
    if (signal.aborted) return { unanswered: ABORTED }
    const waiting = this.#waits.wait(request, signal)
    try {
      await insertAsk(this.#db, this.asksChannel, request, this.instance)
    } catch (error) {
      waiting.drop()
      throw error
    }
    waiting.inserted()
    return waiting.answer
  }

  /**
   * The owner is done with the request: the row becomes `expired` or `resolved`, from any state but those two (an end
   * is final), and its front-end hears of it. A wait of this fleet's for it settles (with the answer, if there is one).
   */
  async endAsk(id: string, end: RelayedEnd): Promise<void> {
    if (end !== 'expired' && end !== 'resolved') throw new KernelError(`a relayed request ends expired or resolved, not ${end}`)
    await endAskRow(this.#db, this.asksChannel, id, end, ['pending', 'sent', 'answered'])
    await this.#waits.check([id])
  }

  /**
   * The front-end's side: calls `onAsk` once for each request sent to this instance, oldest first, and `onEnd` once
   * when its owner ends one it got; handlers that throw stop nothing. While watched, this instance is present. One
   * watch per store (its instance): a second, on this fleet or another of the store's, is refused until the first closes.
   */
  watchAsks(handlers: AskHandlers): AsksWatch {
    if (this.#closing.signal.aborted) throw new KernelError('store.fleet: watchAsks on a fleet that was closed')
    if (watchingAsks.has(this.#db)) throw new KernelError(`store.fleet: the asks of instance ${this.instance} are watched already`)
    watchingAsks.add(this.#db)
    const watch = new AskWatch(
      { db: this.#db, channel: this.asksChannel, schema: this.#schema, instance: this.instance, pollMs: this.#pollMs },
      { onAsk: (request) => handlers.onAsk(request), onEnd: (id, end) => handlers.onEnd(id, end) },
    )
    this.#asksWatch = watch
    return { ready: watch.ready, close: () => this.#closeAsksWatch(watch) }
  }

  /** The connection's answer to a relayed request; false when it was answered or ended before (the first answer wins). */
  async answer(id: string, answer: Answer): Promise<boolean> {
    return answerAsk(this.#db, this.asksChannel, id, answerOf(answer))
  }

  /** Ends the watches, the followers (they resolve) and the waits for answers (`unanswered`), for good. The store's `close` closes its fleets first. */
  async close(): Promise<void> {
    this.#closing.abort()
    this.#wakers.clear()
    this.#waits.close()
    const watcher = this.#watcher
    this.#watcher = undefined
    await Promise.all([watcher?.close(), this.#asksWatch && this.#closeAsksWatch(this.#asksWatch)])
  }

  async #closeAsksWatch(watch: AskWatch): Promise<void> {
    if (this.#asksWatch !== watch) return
    this.#asksWatch = undefined
    watchingAsks.delete(this.#db)
    await watch.close()
  }
}

/** The answer as stored: exactly a result or an error (a missing result is `null`, as JSON-RPC has it). */
function answerOf(answer: Answer): Answer {
  if ('result' in answer) return { result: answer.result ?? null }
  const error = (answer as { error?: { code?: unknown; message?: unknown } }).error
  if (typeof error?.code !== 'number' || typeof error.message !== 'string')
    throw new KernelError('a relayed request is answered with { result } or { error: { code, message } }')
  return { error: { code: error.code, message: error.message } }
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new KernelError(`store.fleet: ${name} must be a positive number of milliseconds, got ${value}`)
  return value
}
