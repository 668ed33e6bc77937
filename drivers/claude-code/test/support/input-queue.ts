/** The SDK's streaming input (`query({ prompt })`): what is pushed is yielded in order, until `end()`. */
export class InputQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = []
  #wake: (() => void) | undefined
  #ended = false

  push(item: T): void {
    this.#items.push(item)
    this.#wake?.()
  }

  end(): void {
    this.#ended = true
    this.#wake?.()
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      while (this.#items.length > 0) yield this.#items.shift()!
      if (this.#ended) return
      await new Promise<void>((resolve) => {
        this.#wake = resolve
      })
    }
  }
}
