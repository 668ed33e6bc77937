import { setTimeout as delay } from 'node:timers/promises'
import { type Clock, KernelError, type SessionEvent, type SessionEventBody, type SessionLog } from '@harness-kernel/kernel'
import type { Database } from './database.js'
import { encodeEvent, jsonArray } from './event-encoding.js'
import type { PostgresSessionLock } from './lease-lock.js'
import { readLease } from './lease-statements.js'
import { databaseUnreachable, leaseLost, lockReleased, logDiverged, writeRefused } from './lock-errors.js'
import { applyEvents, type ThreadSummaryState } from './thread-summary.js'
import { isTransientError } from './transient-errors.js'
import { writeBatch } from './write-batch.js'

/** A batch is cut at whichever comes first: this many events, or this much JSON. */
const BATCH_EVENTS = 1000
const BATCH_CHARS = 8 * 1024 * 1024
/** Waits between tries of a batch the database could not take for now: doubling, up to the cap. */
const FIRST_RETRY_MS = 25
const MAX_RETRY_MS = 1000

export interface PostgresLogContext {
  readonly db: Database
  readonly sessionId: string
  readonly path: string
  readonly lock: PostgresSessionLock
  readonly clock: Clock
  /** Where the thread's log ends, and its summary there. */
  readonly lastSeq: number
  readonly summary: ThreadSummaryState
}

interface SyncWaiter {
  seq: number
  resolve(): void
  reject(error: Error): void
}

/**
 * A thread's log, written behind: `append` numbers the event (this lock's holder is the only writer), queues it and
 * returns it; one writer at a time commits the queue in order, a batch per transaction, and `sync` waits for that. A
 * refused write (the lease was taken over or ran out) loses the log: appends throw from then on, waiting syncs reject,
 * and `onLost` listeners hear why. A database that is down for now is retried while the lease lasts.
 */
export class PostgresSessionLog implements SessionLog {
  readonly path: string
  readonly #context: PostgresLogContext
  readonly #pending: SessionEvent[] = []
  readonly #waiters: SyncWaiter[] = []
  readonly #lostListeners: ((error: Error) => void)[] = []
  readonly #stopWatchingLock: () => void
  #seq: number
  #committedSeq: number
  #committedSummary: ThreadSummaryState
  #writer: Promise<void> | undefined
  #closed = false
  #lost: KernelError | undefined
  /** The last event's time, as written: a step appends several events within one millisecond. */
  #atMs = Number.NaN
  #at = ''

  constructor(context: PostgresLogContext) {
    this.#context = context
    this.path = context.path
    this.#seq = context.lastSeq
    this.#committedSeq = context.lastSeq
    this.#committedSummary = context.summary
    this.#stopWatchingLock = context.lock.whenLost((error) => this.#onLost(error))
  }

  append(body: SessionEventBody): SessionEvent {
    if (this.#lost !== undefined) throw this.#lost
    if (this.#closed) throw new KernelError(`session log ${this.path} is closed`)
    const event = { v: 1, seq: this.#seq + 1, at: this.#timestamp(), ...body } as SessionEvent
    this.#pending.push(event)
    this.#seq = event.seq
    // Started once the event loop has run what is ready now (a step appends across several tasks), so that a step's
    // appends go in one batch and one commit.
    this.#writer ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#write())
      .catch((error: unknown) => {
        // Not the database's answer (those are handled in #commit): the log cannot go on, and says why.
        this.#writer = undefined
        const reason = this.#context.db.reason(error)
        this.#fail(new KernelError(`session ${this.#context.sessionId}: its log's writer failed: ${reason}`, { cause: error }))
      })
    return event
  }

  sync(): Promise<void> {
    const seq = this.#seq
    if (this.#committedSeq >= seq) return Promise.resolve()
    if (this.#lost !== undefined) return Promise.reject(this.#lost)
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }))
  }

  async close(): Promise<void> {
    this.#closed = true
    try {
      await this.sync()
    } finally {
      this.#stopWatchingLock()
    }
  }

  onLost(listener: (error: Error) => void): void {
    const lost = this.#lost
    if (lost !== undefined) queueMicrotask(() => listener(lost))
    else this.#lostListeners.push(listener)
  }

  /** The one writer: batches in order until the queue is empty or the log is lost. */
  async #write(): Promise<void> {
    while (this.#pending.length > 0 && this.#lost === undefined) {
      const batch = this.#nextBatch()
      const committed = await this.#commit(batch)
      if (!committed) break
      this.#pending.splice(0, batch.events.length)
      this.#committedSeq = batch.events.at(-1)?.seq ?? this.#committedSeq
      this.#committedSummary = batch.summary
      this.#settleWaiters()
    }
    this.#writer = undefined
  }

  #nextBatch(): { events: SessionEvent[]; encoded: string; summary: ThreadSummaryState } {
    const events: SessionEvent[] = []
    const encoded: string[] = []
    let chars = 0
    for (const event of this.#pending) {
      const text = encodeEvent(event)
      if (events.length > 0 && (events.length >= BATCH_EVENTS || chars + text.length > BATCH_CHARS)) break
      events.push(event)
      encoded.push(text)
      chars += text.length
    }
    return { events, encoded: jsonArray(encoded), summary: applyEvents(this.#committedSummary, events) }
  }

  /**
   * Writes one batch, the same batch again while the database cannot be reached and the lease lasts. True once it is
   * committed; false once the log is lost.
   */
  async #commit(batch: { events: SessionEvent[]; encoded: string; summary: ThreadSummaryState }): Promise<boolean> {
    const { db, sessionId, lock } = this.#context
    const fence = { sessionId, epoch: lock.epoch, instance: lock.instance, previousSeq: this.#committedSeq }
    for (let attempt = 0; ; attempt++) {
      if (lock.lostError !== undefined) return this.#fail(lock.lostError)
      if (lock.released) return this.#fail(lockReleased(sessionId))
      try {
        if (await writeBatch(db, fence, batch.events, batch.encoded, batch.summary)) return true
        // Refused. A try whose commit went through but whose answer was lost is refused the same way: the row tells.
        const state = await readLease(db, sessionId)
        const ours = state?.epoch === lock.epoch && state.holder?.instance === lock.instance
        if (ours && state?.lastSeq === batch.events.at(-1)?.seq) return true
        if (ours && state?.live && state.lastSeq !== fence.previousSeq)
          return this.#fail(logDiverged(sessionId, fence.previousSeq, state.lastSeq))
        return this.#fail(leaseLost(sessionId, lock.epoch, state))
      } catch (error) {
        const reason = db.reason(error)
        if (!isTransientError(error)) return this.#fail(writeRefused(sessionId, db.address, reason))
        if (!lock.leaseValid()) return this.#fail(databaseUnreachable(sessionId, db.address, lock.leaseMs, reason))
        await delay(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt))
      }
    }
  }

  /** The log is lost, and so is its lock (every other log under it too). Always false: nothing more is committed. */
  #fail(error: KernelError): false {
    this.#context.lock.lose(error)
    this.#onLost(error)
    return false
  }

  #settleWaiters(): void {
    let kept = 0
    for (const waiter of this.#waiters) {
      if (waiter.seq <= this.#committedSeq) waiter.resolve()
      else this.#waiters[kept++] = waiter
    }
    this.#waiters.length = kept
  }

  #onLost(error: KernelError): void {
    if (this.#lost !== undefined) return
    this.#lost = error
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error)
    for (const listener of this.#lostListeners.splice(0)) listener(error)
  }

  /** `toISOString()` costs about as much as the rest of building an event; it is redone only when the clock moved. */
  #timestamp(): string {
    const ms = this.#context.clock.now()
    if (ms !== this.#atMs) {
      this.#at = new Date(ms).toISOString()
      this.#atMs = ms
    }
    return this.#at
  }
}
