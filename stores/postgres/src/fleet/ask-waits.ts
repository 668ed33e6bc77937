import type { Database } from '../database.js'
import type { Queryable } from '../thread-statements.js'
import { parseNote } from './ask-notes.js'
import { endAskRow, readAsks } from './ask-statements.js'
import { NotificationListener } from './notification-listener.js'
import { startPolling } from './polling.js'
import { absentInstances } from './presence.js'
import type { RelayedAnswer, RelayedRequest } from './relayed-request.js'

export const ABORTED = 'aborted: the owner stopped waiting'
export const FLEET_CLOSED = 'the fleet was closed'

export interface AskWaitsOptions {
  db: Database
  channel: string
  /** The raw schema name, for presence keys. */
  schema: string
  /** This instance: the notifications for its waits name it. */
  instance: string
  pollMs: number
  /** How long a front-end's presence may be missing before its requests go unanswered. */
  leaseMs: number
}

interface Waiter {
  request: RelayedRequest
  /** Once the row is committed: before, its front-end cannot be expected to have it. */
  inserted: boolean
  settle(answer: RelayedAnswer): void
}

/** What `wait` gives: the answer to come, and the outcome of the row's insert. */
export interface Waiting {
  readonly answer: Promise<RelayedAnswer>
  inserted(): void
  /** The row could not be written: nothing is waited for. */
  drop(): void
}

/**
 * The owner's side of relayed requests: the waits for their answers. While something waits, a listener (a connection
 * of its own) hears `answered` notes for this instance, and a poll every `pollMs` reads the waited rows (the safety net
 * for a note lost while the listener was reconnecting) and checks the presence of their front-ends. A front-end whose
 * presence has been missing at every check for longer than `leaseMs` is gone: its still unanswered requests expire.
 */
export class AskWaits {
  readonly #options: AskWaitsOptions
  readonly #waiters = new Map<string, Waiter>()
  /** Per front-end found absent: since when (by this process’s monotonic clock), in its current absence. */
  readonly #absentSince = new Map<string, number>()
  #listener: NotificationListener | undefined
  #poll: { stop(): void } | undefined

  constructor(options: AskWaitsOptions) {
    this.#options = options
  }

  /** Starts waiting for the request's answer; call before writing its row, so no note for it is missed. */
  wait(request: RelayedRequest, signal: AbortSignal): Waiting {
    let resolve: (answer: RelayedAnswer) => void = () => {}
    const promise = new Promise<RelayedAnswer>((settle) => {
      resolve = settle
    })
    const onAbort = () => waiter.settle({ unanswered: ABORTED })
    const waiter: Waiter = {
      request,
      inserted: false,
      settle: (answer) => {
        if (this.#waiters.get(request.id) !== waiter) return
        signal.removeEventListener('abort', onAbort)
        this.#forget(request.id)
        resolve(answer)
      },
    }
    this.#waiters.set(request.id, waiter)
    signal.addEventListener('abort', onAbort, { once: true })
    this.#start()
    return {
      answer: promise,
      inserted: () => {
        waiter.inserted = true
      },
      drop: () => {
        if (this.#waiters.get(request.id) !== waiter) return
        signal.removeEventListener('abort', onAbort)
        this.#forget(request.id)
      },
    }
  }

  /** Settles the waits whose rows were answered or ended. */
  async check(ids: readonly string[], db: Queryable = this.#options.db): Promise<void> {
    const waited = ids.filter((id) => this.#waiters.has(id))
    if (waited.length === 0) return
    for (const row of await readAsks(db, this.#options.db.tables, waited)) {
      const waiter = this.#waiters.get(row.id)
      if (row.answer !== undefined) waiter?.settle(row.answer)
      else if (row.state === 'expired' || row.state === 'resolved')
        waiter?.settle({ unanswered: `relayed request ${row.id} was ended (${row.state}) before an answer came` })
    }
  }

  /** Every wait settles `unanswered`; nothing is listened for or polled any more. */
  close(): void {
    for (const waiter of [...this.#waiters.values()]) waiter.settle({ unanswered: FLEET_CLOSED })
  }

  #start(): void {
    const { db, channel, instance, pollMs } = this.#options
    this.#listener ??= new NotificationListener(db, channel, {
      listening: (client) => this.check([...this.#waiters.keys()], client),
      notified: (payload) => {
        const note = parseNote(payload)
        if (note?.to === instance && this.#waiters.has(note.id)) this.check([note.id]).catch(() => undefined)
      },
    })
    this.#poll ??= startPolling(pollMs, () => this.#pollOnce())
  }

  #forget(id: string): void {
    this.#waiters.delete(id)
    if (this.#waiters.size > 0) return
    this.#poll?.stop()
    this.#poll = undefined
    void this.#listener?.close()
    this.#listener = undefined
    this.#absentSince.clear()
  }

  async #pollOnce(): Promise<void> {
    await this.check([...this.#waiters.keys()])
    const targets = new Set([...this.#waiters.values()].filter((waiter) => waiter.inserted).map((waiter) => waiter.request.to.instance))
    for (const instance of this.#absentSince.keys()) if (!targets.has(instance)) this.#absentSince.delete(instance)
    if (targets.size === 0) return
    const checkedAt = performance.now()
    const absent = await absentInstances(this.#options.db, this.#options.schema, [...targets])
    for (const instance of targets) {
      if (!absent.has(instance)) {
        this.#absentSince.delete(instance)
        continue
      }
      const since = this.#absentSince.get(instance) ?? checkedAt
      this.#absentSince.set(instance, since)
      if (checkedAt - since > this.#options.leaseMs) await this.#gone(instance)
    }
  }

  /** The front-end is gone: its requests still unanswered expire (an answer that came meanwhile still wins). */
  async #gone(instance: string): Promise<void> {
    const { db, channel, leaseMs } = this.#options
    const reason = `front-end ${instance} is gone: its presence has been missing for longer than the lease (${leaseMs} ms)`
    for (const waiter of [...this.#waiters.values()]) {
      if (!waiter.inserted || waiter.request.to.instance !== instance) continue
      const { id } = waiter.request
      if (await endAskRow(db, channel, id, 'expired', ['pending', 'sent'])) waiter.settle({ unanswered: reason })
      else await this.check([id])
    }
  }
}
