import type { Context } from '@opentelemetry/api'
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace'

/**
 * In front of the SDK's batch processor: keeps its queue under `maxQueueSize` and counts what does not fit, which the
 * batch processor would drop with only a diagnostic. A span ending never waits: it is queued or counted.
 */
export class BoundedSpanProcessor implements SpanProcessor {
  readonly #inner: SpanProcessor
  readonly #maxQueueSize: number
  readonly #dropped: (count: number) => void
  #queued = 0
  readonly #waiting: { below: number; resolve: () => void }[] = []

  /** Spans waiting in the batch processor's queue. */
  get queued(): number {
    return this.#queued
  }

  constructor(inner: SpanProcessor, maxQueueSize: number, dropped: (count: number) => void) {
    this.#inner = inner
    this.#maxQueueSize = maxQueueSize
    this.#dropped = dropped
  }

  /** The exporter took a batch out of the queue. */
  taken(count: number): void {
    this.#queued = Math.max(0, this.#queued - count)
    for (let index = this.#waiting.length - 1; index >= 0; index--) {
      const waiter = this.#waiting[index]!
      if (this.#queued >= waiter.below) continue
      this.#waiting.splice(index, 1)
      waiter.resolve()
    }
  }

  /** Undefined while fewer than `below` spans wait; else settles once they are fewer (or at shutdown). */
  room(below: number): Promise<void> | undefined {
    if (this.#queued < below) return undefined
    return new Promise((resolve) => this.#waiting.push({ below, resolve }))
  }

  onStart(span: Span, parentContext: Context): void {
    this.#inner.onStart(span, parentContext)
  }

  onEnd(span: ReadableSpan): void {
    if (this.#queued >= this.#maxQueueSize) {
      this.#dropped(1)
      return
    }
    this.#queued++
    this.#inner.onEnd(span)
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush()
  }

  shutdown(): Promise<void> {
    for (const waiter of this.#waiting.splice(0)) waiter.resolve()
    return this.#inner.shutdown()
  }
}
