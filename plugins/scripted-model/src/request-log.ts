import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { ModelCallOptions, ModelRequest } from '@harness-kernel/kernel'

/** Appends one JSON line per model request to a file. */
export class RequestLog {
  readonly #file: string
  #ready = false

  constructor(file: string) {
    this.#file = file
  }

  /** Synchronous, so the line is on disk before `generate()` settles. */
  append(n: number, request: ModelRequest, options: ModelCallOptions): void {
    if (!this.#ready) {
      mkdirSync(dirname(this.#file), { recursive: true })
      this.#ready = true
    }
    const { sessionId, turnId, step, attempt } = options
    appendFileSync(this.#file, `${JSON.stringify({ n, sessionId, turnId, step, attempt, request })}\n`)
  }
}
