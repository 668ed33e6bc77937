import { KernelError, type SessionEvent, type SessionEventBody, type SessionLog } from '../../src/index.js'

/** Where a memory log writes: the session's events, if the log's epoch is still the session's. */
export interface MemoryLogTarget {
  readonly path: string
  readonly events: SessionEvent[]
  /** Undefined while the log's lock is current; else why it is not. */
  fenced(): string | undefined
  /** Settles when a sync may: at once, unless the test holds syncs back. */
  syncing(): Promise<void>
}

/** A log that writes into memory and is lost (`onLost`) when its lock's epoch is no longer the session's. */
export class MemorySessionLog implements SessionLog {
  readonly path: string
  readonly #target: MemoryLogTarget
  #seq: number
  #closed = false
  #lost: Error | undefined
  readonly #listeners: ((error: Error) => void)[] = []

  constructor(target: MemoryLogTarget, lastSeq: number) {
    this.path = target.path
    this.#target = target
    this.#seq = lastSeq
  }

  append(body: SessionEventBody): SessionEvent {
    if (this.#lost !== undefined) throw new KernelError(`session log ${this.path} was lost: ${this.#lost.message}`)
    if (this.#closed) throw new KernelError(`session log ${this.path} is closed`)
    const event = { v: 1, seq: this.#seq + 1, at: new Date().toISOString(), ...body } as SessionEvent
    this.#seq = event.seq
    const fenced = this.#target.fenced()
    // As a store that writes behind: the append returns, and the refused write is found out after.
    if (fenced === undefined) this.#target.events.push(event)
    else this.lose(new KernelError(fenced))
    return event
  }

  async sync(): Promise<void> {
    if (this.#lost !== undefined) throw this.#lost
    await this.#target.syncing()
  }

  async close(): Promise<void> {
    this.#closed = true
  }

  onLost(listener: (error: Error) => void): void {
    this.#listeners.push(listener)
  }

  /** The store can no longer write this log: appends throw from now on, and the listeners hear it once, soon. */
  lose(error: Error): void {
    if (this.#lost !== undefined || this.#closed) return
    this.#lost = error
    queueMicrotask(() => {
      for (const listener of this.#listeners) listener(error)
    })
  }
}
