/**
 * Writes that run one after another, in the order given, and that nobody waits for one by one: a failed write is
 * dropped (what it wrote is also kept somewhere surer). `drained` settles once what was given so far has run.
 */
export class WriteBehind {
  #tail: Promise<void> = Promise.resolve()
  readonly #onIdle: () => void

  /** `onIdle`: called when the last write given has run and no other came meanwhile. */
  constructor(onIdle: () => void = () => {}) {
    this.#onIdle = onIdle
  }

  push(write: () => Promise<unknown>): void {
    const tail = this.#tail.then(write).then(
      () => undefined,
      () => undefined,
    )
    this.#tail = tail
    void tail.then(() => {
      if (this.#tail === tail) this.#onIdle()
    })
  }

  drained(): Promise<void> {
    return this.#tail
  }
}
