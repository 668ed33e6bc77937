import type { IdGenerator } from '@opentelemetry/sdk-trace'
import type { SpanIds } from '../trace/span-ids.js'

/**
 * The SDK's ids, except for a span started inside `withIds`: it gets the ids chosen for it where the session runs (a
 * driven program's `TRACEPARENT` names them before the span exists here).
 */
export class PresetIdGenerator implements IdGenerator {
  readonly #random: IdGenerator
  #preset: SpanIds | undefined

  constructor(random: IdGenerator) {
    this.#random = random
  }

  withIds<T>(ids: SpanIds, start: () => T): T {
    this.#preset = ids
    try {
      return start()
    } finally {
      this.#preset = undefined
    }
  }

  generateTraceId(): string {
    return this.#preset?.traceId ?? this.#random.generateTraceId()
  }

  generateSpanId(): string {
    return this.#preset?.spanId ?? this.#random.generateSpanId()
  }
}
