/** Aborts its signal when a started stream stays silent for `ms` (0: never). */
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

  start(): void {
    this.touch()
  }

  touch(): void {
    if (this.#ms <= 0 || this.#fired) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#fired = true
      this.#controller.abort(new Error(`no data for ${this.#ms} ms`))
    }, this.#ms)
    this.#timer.unref?.()
  }

  stop(): void {
    clearTimeout(this.#timer)
  }
}
