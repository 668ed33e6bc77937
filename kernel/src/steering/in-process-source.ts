import { randomUUID } from 'node:crypto'
import { SteeringCancelledError } from '../errors.js'
import type { Boundary, InputItem, SteeringClaim, SteeringSource, SteerOptions, SteerOutcome, SteerReceipt, SteerState } from './types.js'

interface Entry {
  item: InputItem & { id: string }
  when: 'next-boundary' | 'next-turn'
  state: SteerState
  dropReason?: string
  group: ReceiptGroup
}

interface ReceiptGroup {
  entries: Entry[]
  resolve(outcome: SteerOutcome): void
  reject(error: Error): void
}

/**
 * The default steering source: `session.steer()` queues here and the loop claims at its boundaries.
 * Rejected claims go back to the front of the queue, so later input never overtakes them.
 */
export class InProcessSteeringSource implements SteeringSource {
  readonly capability = 'boundary' as const
  readonly transport = 'in-process'
  #queue: Entry[] = []
  #waiters = new Set<() => void>()
  #listeners = new Set<() => void>()

  push(input: string | InputItem[], options: SteerOptions = {}): SteerReceipt {
    const items = typeof input === 'string' ? [{ type: 'text' as const, text: input }] : input
    if (items.length === 0) throw new TypeError('session.steer() needs at least one input item')
    let resolve!: (outcome: SteerOutcome) => void
    let reject!: (error: Error) => void
    const promise = new Promise<SteerOutcome>((res, rej) => {
      resolve = res
      reject = rej
    })
    promise.catch(() => {})
    const group: ReceiptGroup = { entries: [], resolve, reject }
    for (const item of items) {
      const entry: Entry = { item: { ...item, id: item.id ?? randomUUID() }, when: options.when ?? 'next-boundary', state: 'queued', group }
      group.entries.push(entry)
      this.#queue.push(entry)
    }
    this.#notify()
    const itemIds = group.entries.map((entry) => entry.item.id)
    return Object.assign(promise, {
      itemIds,
      state: () => summarizeState(group.entries),
    }) as SteerReceipt
  }

  /** Items that can be claimed at this boundary: `next-turn` items only at a turn's first step. */
  hasClaimable(turnStart: boolean): boolean {
    return this.#queue.some((entry) => turnStart || entry.when === 'next-boundary')
  }

  queuedIds(): string[] {
    return this.#queue.map((entry) => entry.item.id)
  }

  /** Called whenever input is queued (the session uses it to start a turn when idle). */
  onQueued(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  wait(signal: AbortSignal): Promise<void> {
    if (this.hasClaimable(false) || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        if (!this.hasClaimable(false) && !signal.aborted) return
        signal.removeEventListener('abort', done)
        this.#waiters.delete(done)
        resolve()
      }
      this.#waiters.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }

  async claim(boundary: Boundary, signal: AbortSignal): Promise<SteeringClaim | undefined> {
    if (signal.aborted) return undefined
    const turnStart = boundary.kind === 'sampling' && boundary.step === 1
    const taken = this.#queue.filter((entry) => turnStart || entry.when === 'next-boundary')
    if (taken.length === 0) return undefined
    this.#queue = this.#queue.filter((entry) => !taken.includes(entry))
    for (const entry of taken) entry.state = 'claimed'
    return new InProcessClaim(taken, (returned) => {
      for (const entry of returned) entry.state = 'returned'
      this.#queue = [...returned, ...this.#queue]
      this.#notify()
    })
  }

  /** Ends every queued item: its receipt rejects with `SteeringCancelledError`. Returns the ids. */
  cancelAll(reason: string): string[] {
    const cancelled = this.#queue
    this.#queue = []
    for (const entry of cancelled) entry.state = 'cancelled'
    for (const group of new Set(cancelled.map((entry) => entry.group))) {
      group.reject(
        new SteeringCancelledError(
          group.entries.map((entry) => entry.item.id),
          reason,
        ),
      )
    }
    return cancelled.map((entry) => entry.item.id)
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter()
    for (const listener of this.#listeners) listener()
  }
}

class InProcessClaim implements SteeringClaim {
  readonly items: InputItem[]
  readonly #entries: Entry[]
  readonly #giveBack: (entries: Entry[]) => void
  #settled = false

  constructor(entries: Entry[], giveBack: (entries: Entry[]) => void) {
    this.#entries = entries
    this.items = entries.map((entry) => entry.item)
    this.#giveBack = giveBack
  }

  drop(itemId: string, reason: string): void {
    const entry = this.#entries.find((candidate) => candidate.item.id === itemId)
    if (entry) entry.dropReason = reason
  }

  accept(): void {
    this.#settle()
    for (const entry of this.#entries) entry.state = entry.dropReason === undefined ? 'recorded' : 'dropped'
    for (const group of new Set(this.#entries.map((entry) => entry.group))) settleGroup(group)
  }

  reject(): void {
    this.#settle()
    this.#giveBack(this.#entries)
  }

  #settle(): void {
    if (this.#settled) throw new Error('steering claim settled twice')
    this.#settled = true
  }
}

function settleGroup(group: ReceiptGroup): void {
  if (group.entries.some((entry) => entry.state !== 'recorded' && entry.state !== 'dropped')) return
  const itemIds = group.entries.map((entry) => entry.item.id)
  const dropped = group.entries.filter((entry) => entry.state === 'dropped')
  if (dropped.length === group.entries.length) {
    group.resolve({ state: 'dropped', itemIds, reason: dropped.map((entry) => entry.dropReason).join('; ') })
  } else group.resolve({ state: 'recorded', itemIds })
}

function summarizeState(entries: Entry[]): SteerState {
  const states = new Set(entries.map((entry) => entry.state))
  for (const state of ['cancelled', 'queued', 'returned', 'claimed', 'recorded'] as const) if (states.has(state)) return state
  return 'dropped'
}
