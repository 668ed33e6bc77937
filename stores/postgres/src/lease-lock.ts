import { performance } from 'node:perf_hooks'
import type { KernelError, SessionLock, SessionLockHolder } from '@harness-kernel/kernel'
import type { Database } from './database.js'
import { type LeaseGrant, readLease, releaseLease, renewLease } from './lease-statements.js'
import { databaseUnreachable, leaseLost } from './lock-errors.js'

/** The longest wait before a failed renewal is tried again. */
const RETRY_MS = 500

export interface LeaseLockContext {
  readonly db: Database
  readonly sessionId: string
  readonly path: string
  /** The store instance holding the lease: its id in the `holder` column. */
  readonly instance: string
  readonly leaseMs: number
}

/**
 * A session's lock as a lease on its thread row: held at `epoch` until `lease_until`, renewed every third of the lease
 * by a timer that does not keep the process alive. When the lease is found taken over, run out, or could not be
 * renewed before it would have run out (fail closed), the lock is lost: every log written under it is told
 * (`whenLost`) and writes no more.
 */
export class PostgresSessionLock implements SessionLock {
  readonly path: string
  readonly sessionId: string
  readonly epoch: number
  readonly tookOver: SessionLockHolder | undefined
  readonly #context: LeaseLockContext
  readonly #listeners = new Set<(error: KernelError) => void>()
  readonly #timer: NodeJS.Timeout
  /** Until when (this process's monotonic clock) the lease is surely still held: when the last renewal was sent, plus the lease. */
  #validUntil: number
  #renewal: Promise<void> | undefined
  #retry: NodeJS.Timeout | undefined
  #lastFailure: unknown
  #paused = false
  #released = false
  #lost: KernelError | undefined

  constructor(context: LeaseLockContext, grant: LeaseGrant, sentAt: number) {
    this.#context = context
    this.path = context.path
    this.sessionId = context.sessionId
    this.epoch = grant.epoch
    this.tookOver =
      grant.previous === undefined ? undefined : { pid: grant.previous.pid, host: grant.previous.host, since: grant.previous.since }
    this.#validUntil = sentAt + context.leaseMs
    this.#timer = setInterval(() => this.#tick(), Math.max(1, Math.floor(context.leaseMs / 3)))
    this.#timer.unref()
  }

  /** The instance id the lease is held under (the `holder->>'instance'` of the row). */
  get instance(): string {
    return this.#context.instance
  }

  get leaseMs(): number {
    return this.#context.leaseMs
  }

  /** Why the lock was lost, once it was. */
  get lostError(): KernelError | undefined {
    return this.#lost
  }

  get released(): boolean {
    return this.#released
  }

  /** Whether the lease is surely still held, as far as this process can tell without asking the database. */
  leaseValid(): boolean {
    return !this.#released && this.#lost === undefined && performance.now() < this.#validUntil
  }

  /** Calls `listener` once when the lock is lost (at once if it was). Returns what unsubscribes it. */
  whenLost(listener: (error: KernelError) => void): () => void {
    const lost = this.#lost
    if (lost !== undefined) {
      queueMicrotask(() => listener(lost))
      return () => {}
    }
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Declares the lock lost (once): renewal stops and every listener hears why. */
  lose(error: KernelError): void {
    if (this.#lost !== undefined || this.#released) return
    this.#lost = error
    this.#stopTimers()
    const listeners = [...this.#listeners]
    this.#listeners.clear()
    for (const listener of listeners) {
      try {
        listener(error)
      } catch {
        // One listener's failure is its own: every other still hears of the loss.
      }
    }
  }

  /** Stops renewing the lease while the lock is still held: a process that stalled, for tests of what follows. */
  pauseRenewal(): void {
    this.#paused = true
  }

  /** Renews the lease again from the next tick on: the stalled process runs again. */
  resumeRenewal(): void {
    this.#paused = false
  }

  /** Gives the lease up. A lease taken over since is left alone; if the database cannot be reached, it runs out by itself. */
  async release(): Promise<void> {
    if (this.#released) return
    this.#released = true
    this.#stopTimers()
    this.#listeners.clear()
    if (this.#lost !== undefined) return
    const { db, sessionId, instance } = this.#context
    try {
      await releaseLease(db, sessionId, this.epoch, instance)
    } catch {
      // Unreleased, the lease runs out within leaseMs: never worth failing the caller's shutdown for.
    }
  }

  #stopTimers(): void {
    clearInterval(this.#timer)
    clearTimeout(this.#retry)
  }

  #tick(): void {
    if (this.#released || this.#lost !== undefined || this.#paused) return
    if (this.#renewal !== undefined) {
      this.#checkDeadline()
      return
    }
    this.#renewal = this.#renew().finally(() => {
      this.#renewal = undefined
    })
  }

  async #renew(): Promise<void> {
    const { db, sessionId, instance, leaseMs } = this.#context
    const sentAt = performance.now()
    let renewed: boolean
    try {
      renewed = await renewLease(db, sessionId, this.epoch, instance, leaseMs)
    } catch (error) {
      this.#lastFailure = error
      this.#checkDeadline()
      this.#retrySoon()
      return
    }
    if (this.#released || this.#lost !== undefined) return
    if (renewed) {
      this.#validUntil = Math.max(this.#validUntil, sentAt + leaseMs)
      this.#lastFailure = undefined
      return
    }
    this.lose(await this.explainLoss())
  }

  /** After a failed renewal, another try well before the next tick: the lease may run out before that. */
  #retrySoon(): void {
    if (this.#retry !== undefined || this.#lost !== undefined || this.#released) return
    this.#retry = setTimeout(
      () => {
        this.#retry = undefined
        this.#tick()
      },
      Math.min(RETRY_MS, this.#context.leaseMs / 10),
    )
    this.#retry.unref()
  }

  /** Why the database no longer counts the lease as this lock's. */
  async explainLoss(): Promise<KernelError> {
    const { db, sessionId, leaseMs } = this.#context
    try {
      return leaseLost(sessionId, this.epoch, await readLease(db, sessionId))
    } catch (error) {
      return databaseUnreachable(sessionId, db.address, leaseMs, db.reason(error))
    }
  }

  /** Fail closed: a lease that could not be renewed in time is lost, whatever the database may think. */
  #checkDeadline(): void {
    if (performance.now() < this.#validUntil) return
    const { db, sessionId, leaseMs } = this.#context
    const cause = this.#lastFailure === undefined ? 'the renewal did not answer' : db.reason(this.#lastFailure)
    this.lose(databaseUnreachable(sessionId, db.address, leaseMs, cause))
  }
}
