import type { Attributes } from '@opentelemetry/api'
import { type DataPoint, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'

/** A metric reader a test collects from when it wants (the SDK's `MetricReader` with nothing to flush). */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** The plugin's providers for a test: every ended span kept in memory, metrics collected on demand. */
export interface InMemoryTelemetry {
  tracerProvider: TracerProvider
  meterProvider: MeterProvider
  spans(): ReadableSpan[]
  /** Each metric's data points, by name. */
  metrics(): Promise<Map<string, DataPoint<unknown>[]>>
}

export function inMemoryTelemetry(): InMemoryTelemetry {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] })
  const reader = new CollectingReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  return {
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect()
      const byName = new Map<string, DataPoint<unknown>[]>()
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric.dataPoints as DataPoint<unknown>[])
      }
      return byName
    },
  }
}

/** The spans whose name is `name` (or starts with it, for `chat`, `execute_tool`…). */
export function spansNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name || span.name.startsWith(`${name} `))
}

export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spansNamed(spans, name)
  if (found.length !== 1)
    throw new Error(`expected one "${name}" span, found ${found.length}: ${spans.map((span) => span.name).join(', ')}`)
  return found[0]!
}

export function parentOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const parent = span.parentSpanContext?.spanId
  return parent === undefined ? undefined : spans.find((candidate) => candidate.spanContext().spanId === parent)
}

/** Milliseconds from the epoch of an SDK time. */
export function ms([seconds, nanos]: readonly [number, number]): number {
  return seconds * 1000 + nanos / 1e6
}

/** The data point whose attributes include `match`, summed over those that do (a counter's value, a histogram's sum). */
export function total(points: readonly DataPoint<unknown>[] | undefined, match: Attributes): number {
  let sum = 0
  for (const point of points ?? []) {
    if (!Object.entries(match).every(([key, value]) => point.attributes[key] === value)) continue
    const value = point.value as number | { sum?: number }
    sum += typeof value === 'number' ? value : (value.sum ?? 0)
  }
  return sum
}

/** How many values a histogram took where the attributes match. */
export function counted(points: readonly DataPoint<unknown>[] | undefined, match: Attributes): number {
  let count = 0
  for (const point of points ?? []) {
    if (!Object.entries(match).every(([key, value]) => point.attributes[key] === value)) continue
    count += (point.value as { count: number }).count
  }
  return count
}
