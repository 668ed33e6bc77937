import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { RecordedRequest, RequestSignals } from './recorded-request.js'

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * The answer to one request as a dialect writes it: the head, then events (each written as soon as it is made), pauses
 * and holds, the end. Once the client has gone (or the reply cut the connection), every write is skipped.
 */
export class ReplyStream {
  #events = 0
  #ended = false
  #cut = false
  readonly #res: ServerResponse
  readonly #request: RecordedRequest
  readonly #signals: RequestSignals
  readonly #disconnectAfter: number | undefined

  constructor(options: {
    res: ServerResponse
    request: RecordedRequest
    signals: RequestSignals
    disconnectAfterEvents: number | undefined
  }) {
    this.#res = options.res
    this.#request = options.request
    this.#signals = options.signals
    this.#disconnectAfter = options.disconnectAfterEvents
  }

  /** The client went away, or the reply cut the connection. */
  get gone(): boolean {
    return this.#cut || this.#res.destroyed
  }

  get ended(): boolean {
    return this.#ended
  }

  head(status: number, headers: OutgoingHttpHeaders): void {
    this.#res.writeHead(status, headers)
  }

  /** Writes one event (an SSE frame), unless the connection is gone; cuts the connection after `disconnectAfterEvents`. */
  event(frame: string): void {
    if (this.gone) return
    this.#firstByte()
    this.#events++
    if (this.#disconnectAfter === undefined || this.#events < this.#disconnectAfter) {
      this.#res.write(frame)
      return
    }
    // The cut comes once the last event is on its way, so that the client gets every byte before it.
    this.#cut = true
    this.#res.write(frame, () => this.#res.socket?.destroy())
  }

  /** Writes one frame and waits until it is handed to the socket, so that what follows (a cut, a hold) comes after it. */
  async flushed(frame: string): Promise<void> {
    if (this.gone) return
    this.#firstByte()
    await new Promise<void>((resolve, reject) => this.#res.write(frame, (error) => (error ? reject(error) : resolve())))
  }

  pause(ms: number): Promise<void> {
    return ms > 0 ? pause(ms) : Promise.resolve()
  }

  /** Holds the answer until `until` settles; the request's `held` settles now. */
  async hold(until: PromiseLike<unknown>): Promise<void> {
    this.#signals.held()
    await until
  }

  /** Holds the answer open until the client goes away. */
  holdOpen(): void {
    this.#signals.held()
  }

  end(body?: string): void {
    if (this.gone) return
    this.#firstByte()
    this.#ended = true
    this.#res.end(body)
    this.#request.endedAt = performance.now()
  }

  /** Destroys the socket: the connection closes with no more bytes. */
  disconnect(): void {
    this.#cut = true
    this.#res.socket?.destroy()
  }

  #firstByte(): void {
    this.#request.firstByteAt ??= performance.now()
  }
}
