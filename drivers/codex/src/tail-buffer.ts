/** The last `limit` characters of a child's stderr, for the message that reports its exit. */
export class StderrTail {
  #text = ''
  readonly #limit: number

  constructor(limit = 4000) {
    this.#limit = limit
  }

  write(chunk: string): void {
    this.#text = (this.#text + chunk).slice(-this.#limit)
  }

  toString(): string {
    return this.#text.trim()
  }
}
