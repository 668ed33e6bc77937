const MAX_TIMER_MS = 2 ** 31 - 1

export interface TimeoutSignal {
  /** Aborts on the timeout or on the caller's signal. */
  signal: AbortSignal
  timedOut(): boolean
  aborted(): boolean
}

/** The caller's signal combined with a timeout; a `timeoutMs` that is not a positive number means no timeout. */
export function timeoutSignal(timeoutMs: number, callerSignal: AbortSignal | undefined): TimeoutSignal {
  const timeout =
    Number.isFinite(timeoutMs) && timeoutMs > 0 ? AbortSignal.timeout(Math.min(Math.ceil(timeoutMs), MAX_TIMER_MS)) : undefined
  const signals = [callerSignal, timeout].filter((signal): signal is AbortSignal => signal !== undefined)
  const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals)
  return {
    signal,
    aborted: () => callerSignal?.aborted ?? false,
    timedOut: () => (timeout?.aborted ?? false) && !(callerSignal?.aborted ?? false),
  }
}

export function timeoutText(timeoutMs: number): string {
  return `timed out after ${timeoutMs} ms`
}

/** Settles like `promise`, or rejects as soon as `signal` aborts (for callees that ignore their signal). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {})
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {})
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
