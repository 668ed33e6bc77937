/** The last `limit` characters written: a child's stderr, for error messages. */
export class TailBuffer {
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
