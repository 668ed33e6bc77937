import type { InterruptOrigin } from './session-types.js'

/** What waits on each signal: one `abort` listener per signal, however many races come and go on it. */
const abortWaiters = new WeakMap<AbortSignal, Set<() => void>>()

/** Calls `onAbort` when the signal aborts; returns the set to delete it from once the wait is over. */
function awaitAbort(signal: AbortSignal, onAbort: () => void): Set<() => void> {
  let waiters = abortWaiters.get(signal)
  if (waiters === undefined) {
    const created = new Set<() => void>()
    signal.addEventListener(
      'abort',
      () => {
        for (const waiter of created) waiter()
        created.clear()
      },
      { once: true },
    )
    abortWaiters.set(signal, created)
    waiters = created
  }
  waiters.add(onAbort)
  return waiters
}

/**
 * Resolves with the promise, or rejects with the signal's reason as soon as it aborts. The loop races every claim and
 * model call against its turn's signal: a set entry per race is much cheaper than an `abort` listener added and removed.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The raced promise may still reject (often with this same abort); that rejection is not news.
    promise.catch(() => {})
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    const waiters = awaitAbort(signal, onAbort)
    promise.then(
      (value) => {
        waiters.delete(onAbort)
        resolve(value)
      },
      (error) => {
        waiters.delete(onAbort)
        reject(error)
      },
    )
  })
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts (at once if it already has). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** Resolves once the signal aborts (at once if it already has); never rejects. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

/** The reason a turn's signal carries when `session.interrupt()` aborts it. */
export class TurnInterruptedError extends Error {
  override readonly name = 'TurnInterruptedError'
  readonly origin: InterruptOrigin | undefined

  constructor(reason: string, origin?: InterruptOrigin) {
    super(reason)
    this.origin = origin
  }
}
