import type { PushMetricExporter } from '@opentelemetry/sdk-metrics'
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace'
import type { ExportHealth } from './export-health.js'

type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0]

/** `ExportResultCode.SUCCESS` of `@opentelemetry/core`, which the exporters return. */
const SUCCESS = 0

/** Passes spans on to the real exporter and counts those it could not deliver (refused, unreachable, timed out). */
export class CountingSpanExporter implements SpanExporter {
  readonly #inner: SpanExporter
  readonly #health: ExportHealth
  readonly #destination: string
  readonly #taken: (count: number) => void
  /** Spans handed to the exporter whose outcome is not known yet. */
  inFlight = 0

  constructor(inner: SpanExporter, health: ExportHealth, destination: string, taken: (count: number) => void) {
    this.#inner = inner
    this.#health = health
    this.#destination = destination
    this.#taken = taken
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    // Out of the processor's queue: room for as many more.
    this.#taken(spans.length)
    this.inFlight += spans.length
    this.#inner.export(spans, (result) => {
      this.inFlight -= spans.length
      if (result.code !== SUCCESS) this.#health.spansLost(spans.length, reasonOf(result), this.#destination)
      done(result)
    })
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown()
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve()
  }
}

/** The same for metrics: a failed export is counted once per interval's batch. */
export class CountingMetricExporter implements PushMetricExporter {
  readonly #inner: PushMetricExporter
  readonly #health: ExportHealth
  readonly #destination: string
  readonly selectAggregationTemporality?: PushMetricExporter['selectAggregationTemporality']
  readonly selectAggregation?: PushMetricExporter['selectAggregation']

  constructor(inner: PushMetricExporter, health: ExportHealth, destination: string) {
    this.#inner = inner
    this.#health = health
    this.#destination = destination
    if (inner.selectAggregationTemporality) this.selectAggregationTemporality = inner.selectAggregationTemporality.bind(inner)
    if (inner.selectAggregation) this.selectAggregation = inner.selectAggregation.bind(inner)
  }

  export(...[metrics, done]: Parameters<PushMetricExporter['export']>): void {
    this.#inner.export(metrics, (result) => {
      if (result.code !== SUCCESS) this.#health.metricsLost(reasonOf(result), this.#destination)
      done(result)
    })
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush()
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown()
  }
}

function reasonOf(result: ExportResult): string {
  return result.error?.message?.split('\n')[0] || 'the export failed'
}
