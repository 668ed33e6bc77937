import { EventEmitter, once } from 'node:events'
import { setTimeout as pause } from 'node:timers/promises'
import type { Prng } from '../../../bench/src/reliability/prng.js'
import { type FaultContext, type FaultReport, killOwner, restartPostgres, stallOwner } from './faults.js'

export type FaultKind = 'kill -9' | 'SIGSTOP' | 'postgres restart'

export interface PlannedFault {
  kind: FaultKind
  /** Fires once the client is about to send this input. */
  atInput: number
}

const RUN: Record<FaultKind, (context: FaultContext) => Promise<FaultReport>> = {
  'kill -9': killOwner,
  SIGSTOP: stallOwner,
  'postgres restart': restartPostgres,
}

/** Three kills, one stall, one restart of the server, in a drawn order, one drawn point in each of five spans of inputs. */
export function drawFaultPlan(rng: Prng, firstInput: number, span: number): PlannedFault[] {
  const kinds: FaultKind[] = ['kill -9', 'kill -9', 'kill -9', 'SIGSTOP', 'postgres restart']
  for (let index = kinds.length - 1; index > 0; index--) {
    const other = rng.int(index + 1)
    ;[kinds[index], kinds[other]] = [kinds[other]!, kinds[index]!]
  }
  return kinds.map((kind, index) => ({ kind, atInput: firstInput + index * span + rng.int(span) }))
}

/**
 * Runs the plan's faults one after another as the client reaches their points, while the client goes on sending. The
 * client waits for a fault to be over once it is `slack` inputs past its point, so the faults spread over the run and
 * never overlap; while the fault waits for what only input brings (a take-over, a command), the client sends on, one
 * input a second, so neither waits for the other.
 */
export class FaultRunner {
  readonly reports: FaultReport[] = []
  /** Rejects as soon as a fault fails, for the client to stop on it rather than on what follows from it. */
  readonly failure: Promise<never>
  readonly #plan: PlannedFault[]
  readonly #slack: number
  readonly #done: Promise<void>[] = []
  readonly #changed = new EventEmitter()
  #input = 0
  #needingInput = 0

  constructor(plan: PlannedFault[], context: Omit<FaultContext, 'needingInput'>, slack: number) {
    this.#plan = plan
    this.#slack = slack
    const full: FaultContext = { ...context, needingInput: (wait) => this.#needingInputFor(wait) }
    let previous = Promise.resolve()
    for (const fault of plan) {
      previous = previous.then(async () => {
        await this.#reached(fault.atInput)
        this.reports.push(await RUN[fault.kind](full))
      })
      // Awaited by `before` and `finished`; marked handled so a failure is reported there, not as an unhandled rejection.
      previous.catch(() => {})
      this.#done.push(previous)
    }
    this.failure = new Promise<never>((_, reject) => {
      for (const done of this.#done) done.catch(reject)
    })
    this.failure.catch(() => {})
  }

  /** The client is about to send input `n`: waits for the faults it is far enough past, unless they wait for input. */
  async before(n: number): Promise<void> {
    this.#input = n
    this.#changed.emit('change')
    const blocking = Promise.all(this.#plan.flatMap((fault, index) => (fault.atInput <= n - this.#slack ? [this.#done[index]!] : [])))
    let over = false
    void blocking.then(
      () => (over = true),
      () => (over = true),
    )
    while (!over) {
      if (this.#needingInput > 0) {
        await Promise.race([blocking, pause(1_000)])
        return
      }
      await Promise.race([blocking, once(this.#changed, 'change')])
    }
    await blocking
  }

  /** Every fault has run (rejects with the first that failed). */
  finished(): Promise<void> {
    return Promise.all(this.#done).then(() => {})
  }

  async #needingInputFor<T>(wait: Promise<T>): Promise<T> {
    this.#needingInput++
    this.#changed.emit('change')
    try {
      return await wait
    } finally {
      this.#needingInput--
    }
  }

  async #reached(n: number): Promise<void> {
    while (this.#input < n) await once(this.#changed, 'change')
  }
}
