import type { LiveSteerClaim, LiveSteering, UserMessage } from '../src/index.js'

export type Settlement = 'accept' | 'reject'

/**
 * An OMP agent's steering queue with one `LiveSteering` channel per provider call, following
 * steering.md §4.2: `wait` never consumes; `claim` takes the queued user messages as one batch; a
 * claim settles once; `accept` appends to `accepted` and calls `onAccepted`; `reject` defers; once
 * anything is deferred in a call, `wait` resolves only on abort and `claim` returns `undefined`;
 * deferred input is delivered at the next call ahead of later input.
 */
export class FakeOmpAgent {
  readonly queue: UserMessage[] = []
  /** Everything any call accepted, in order. */
  readonly accepted: UserMessage[] = []
  readonly channels: FakeLiveSteering[] = []
  onAccepted: ((messages: readonly UserMessage[]) => void) | undefined
  #clock = 1_700_000_000_000
  #waiters = new Set<() => void>()

  get current(): FakeLiveSteering | undefined {
    return this.channels.at(-1)
  }

  /** Queues user input (as OMP's steer mode would). Returns the message. */
  push(text: string, extra: Partial<UserMessage> = {}): UserMessage {
    const message: UserMessage = { role: 'user', content: text, timestamp: this.#clock++, ...extra }
    this.pushMessage(message)
    return message
  }

  pushMessage(message: UserMessage): void {
    this.queue.push(message)
    for (const wake of [...this.#waiters]) wake()
  }

  /** A new provider call: the previous call's deferred input goes to the front of the queue (rule 7). */
  startCall(): FakeLiveSteering {
    const previous = this.current
    if (previous) {
      previous.ended = true
      this.queue.unshift(...previous.deferred)
    }
    const channel = new FakeLiveSteering(this)
    this.channels.push(channel)
    return channel
  }

  waitForQueue(signal: AbortSignal): Promise<void> {
    if (this.queue.length > 0 || signal.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done)
        this.#waiters.delete(done)
        resolve()
      }
      this.#waiters.add(done)
      signal.addEventListener('abort', done, { once: true })
    })
  }
}

export interface ClaimRecord {
  messages: readonly UserMessage[]
  settlements: Settlement[]
}

export class FakeLiveSteering implements LiveSteering {
  readonly accepted: UserMessage[] = []
  readonly deferred: UserMessage[] = []
  readonly claims: ClaimRecord[] = []
  /** `claim()` calls, including ones that returned undefined. */
  claimCalls = 0
  waitCalls = 0
  ended = false
  readonly #agent: FakeOmpAgent
  #hold: { taken: () => void; released: Promise<void> } | undefined

  constructor(agent: FakeOmpAgent) {
    this.#agent = agent
  }

  get settlements(): Settlement[] {
    return this.claims.flatMap((claim) => claim.settlements)
  }

  /**
   * Holds the hand-over of the next claims: a claim takes its batch, then waits for `release()` (to end the call or
   * interrupt mid-claim). `taken` settles once a claim has taken its batch and waits.
   */
  holdHandOver(): { taken: Promise<void>; release: () => void } {
    let taken!: () => void
    let release!: () => void
    const whenTaken = new Promise<void>((resolve) => {
      taken = resolve
    })
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    this.#hold = { taken, released }
    return { taken: whenTaken, release }
  }

  wait(signal: AbortSignal): Promise<void> {
    this.waitCalls++
    if (this.deferred.length === 0) return this.#agent.waitForQueue(signal)
    if (signal.aborted) return Promise.resolve()
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
  }

  async claim(signal: AbortSignal): Promise<LiveSteerClaim | undefined> {
    this.claimCalls++
    if (this.ended) throw new Error('fake OMP: a LiveSteering of an ended call was used')
    if (this.deferred.length > 0 || signal.aborted) return undefined
    const messages = this.#agent.queue.splice(0)
    if (messages.length === 0) return undefined
    // A held hand-over: the batch is already taken, so it arrives even if the caller aborted meanwhile.
    if (this.#hold) {
      this.#hold.taken()
      await this.#hold.released
    }
    const record: ClaimRecord = { messages, settlements: [] }
    this.claims.push(record)
    const settle = (how: Settlement) => {
      record.settlements.push(how)
      if (record.settlements.length > 1) throw new Error('fake OMP: claim settled twice')
    }
    return {
      messages,
      accept: () => {
        settle('accept')
        this.accepted.push(...messages)
        this.#agent.accepted.push(...messages)
        this.#agent.onAccepted?.(messages)
      },
      reject: () => {
        settle('reject')
        this.deferred.push(...messages)
      },
    }
  }
}
