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
    return this.#inner.shutdown()
  }
}
