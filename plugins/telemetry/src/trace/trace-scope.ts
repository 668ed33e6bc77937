import type { Attributes, Tracer } from '@opentelemetry/api'
import type { ContentCapture } from '../config/export-config.js'
import type { Instruments } from './instruments.js'
import type { SpanIds } from './span-ids.js'

/** What every session's trace of one plugin shares. */
export interface TraceScope {
  readonly tracer: Tracer
  /** Undefined when metrics are off. */
  readonly instruments: Instruments | undefined
  readonly capture: ContentCapture
  /** Added to every span (Codex's `[otel] span_attributes`). */
  readonly spanAttributes: Attributes
  /**
   * Starts a span with the ids a session's span must have (named to a driven program before the span exists, in
   * another thread). Absent where the caller's providers make the ids.
   */
  withIds?: <T>(ids: SpanIds, start: () => T) => T
}
