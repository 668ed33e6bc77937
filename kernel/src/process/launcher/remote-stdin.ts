import type { ProcessStdin } from '../../process-runner.js'
import type { RunControl } from './launcher-protocol.js'

interface PendingWrite {
  resolve(): void
  reject(error: Error): void
}

/** The `onStdin` handle of a run in the launcher: each write a message, settled when the launcher says it was written. */
export class RemoteStdin implements ProcessStdin {
  readonly pid: number
  readonly #send: (control: RunControl) => void
  readonly #pending = new Map<number, PendingWrite>()
  #nextWrite = 1
  #ended = false

  constructor(pid: number, send: (control: RunControl) => void) {
    this.pid = pid
    this.#send = send
  }

  get ended(): boolean {
    return this.#ended
  }

  write(chunk: string | Uint8Array): Promise<void> {
    if (this.#ended) return Promise.reject(new Error('stdin is already closed'))
    const write = this.#nextWrite++
    return new Promise((resolve, reject) => {
      this.#pending.set(write, { resolve, reject })
      this.#send({ type: 'stdin', write, chunk })
    })
  }

  end(): void {
    if (this.#ended) return
    this.#ended = true
    this.#send({ type: 'stdin-end' })
  }

  /** The launcher's word on a write; a failed one means the pipe is gone. */
  written(write: number, error: string | undefined): void {
    const pending = this.#pending.get(write)
    this.#pending.delete(write)
    if (error === undefined) {
      pending?.resolve()
      return
    }
    this.#ended = true
    pending?.reject(new Error(error))
  }

  /** The run is over: stdin is closed, and a write not yet confirmed fails. */
  close(): void {
    this.#ended = true
    for (const pending of this.#pending.values()) pending.reject(new Error('stdin is already closed'))
    this.#pending.clear()
  }
}
