/**
 * Aborts a stream that goes quiet: `watch()` passes events through and restarts the timer on each one; when `ms` pass
 * with no event, `signal` aborts (the SDK then ends the stream) and `fired` is true. `ms` of 0 never fires.
 */
export class IdleWatch {
  readonly #controller = new AbortController()
  readonly #ms: number
  #timer: NodeJS.Timeout | undefined
  #fired = false

  constructor(ms: number) {
    this.#ms = ms
  }

  get signal(): AbortSignal {
    return this.#controller.signal
  }

  get fired(): boolean {
    return this.#fired
  }

  async *watch<T>(events: AsyncIterable<T>): AsyncIterable<T> {
    this.#arm()
    try {
      for await (const event of events) {
        this.#arm()
        yield event
      }
    } finally {
      this.stop()
    }
  }

  stop(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #arm(): void {
    if (this.#ms <= 0) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#fired = true
      this.#controller.abort()
    }, this.#ms)
  }
}
