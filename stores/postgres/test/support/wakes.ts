/** How long a wait may take before it fails: a bound for a stuck test, never a measure of speed. */
const BOUND_MS = 20_000

interface Waiter {
  threadId: string
  count: number
  resolve(): void
}

/** Records the threads a watcher wakes, and lets a test wait for a thread's next wakes. */
export class Wakes {
  readonly counts = new Map<string, number>()
  readonly #waiting = new Set<Waiter>()

  readonly wake = (threadId: string): void => {
    const count = this.count(threadId) + 1
    this.counts.set(threadId, count)
    for (const waiter of this.#waiting)
      if (waiter.threadId === threadId && count >= waiter.count) {
        this.#waiting.delete(waiter)
        waiter.resolve()
      }
  }

  count(threadId: string): number {
    return this.counts.get(threadId) ?? 0
  }

  /** Settles once the thread was woken `more` times after now. */
  next(threadId: string, more = 1): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(waiter)
        reject(new Error(`gave up waiting for ${more} wake(s) of ${threadId}`))
      }, BOUND_MS)
      const waiter: Waiter = {
        threadId,
        count: this.count(threadId) + more,
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
      }
      this.#waiting.add(waiter)
    })
  }
}
