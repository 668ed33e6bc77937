import type { MeterProvider, TracerProvider } from '@opentelemetry/api'
import type { IdGenerator } from '@opentelemetry/sdk-trace'
import type { ExportConfig } from '../config/export-config.js'
import { settlesWithin } from '../settles-within.js'
import { BoundedSpanProcessor } from './bounded-span-processor.js'
import { commonJs } from './common-js.js'
import { CountingMetricExporter, CountingSpanExporter } from './counting-exporters.js'
import { type ExportHealth, shownEndpoint } from './export-health.js'
import { loadMetricExporter, loadSpanExporter } from './load-exporters.js'

/** The running SDK: providers to instrument with, and the one way to stop them. */
export interface Pipeline {
  readonly tracerProvider: TracerProvider | undefined
  readonly meterProvider: MeterProvider | undefined
  /** Exports what is queued and stops, within `timeoutMs`: spans still waiting or on their way then are counted as lost. */
  shutdown(timeoutMs: number): Promise<void>
  /** Undefined while the span queue is less than half full; else settles once it is (export made room). */
  spanRoom(): Promise<void> | undefined
}

export interface PipelineResource {
  serviceName: string
  attributes: Record<string, string>
}

/**
 * Loads the OpenTelemetry SDK and the exporters the config names (`await import`: none of it is loaded before
 * telemetry is on) and starts them: spans through a bounded batch processor, metrics through a periodic reader. Export
 * runs on timers and sockets; nothing here is waited for by a turn.
 */
export async function startPipeline(
  config: ExportConfig,
  resource: PipelineResource,
  health: ExportHealth,
  /** Wraps the SDK's random ids (a session's span takes the ids chosen for it). */
  ids: (random: IdGenerator) => IdGenerator = (random) => random,
): Promise<Pipeline> {
  const [
    { TracerProvider: SdkTracerProvider, BatchSpanProcessor, RandomIdGenerator },
    { MeterProvider: SdkMeterProvider, PeriodicExportingMetricReader },
    resources,
  ] = await Promise.all([
    commonJs(import('@opentelemetry/sdk-trace')),
    commonJs(import('@opentelemetry/sdk-metrics')),
    commonJs(import('@opentelemetry/resources')),
  ])
  const sdkResource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ ...resource.attributes, 'service.name': resource.serviceName }))
  const { batch } = config

  let tracerProvider: InstanceType<typeof SdkTracerProvider> | undefined
  /** What is left of the spans when the time to shut down has run out. */
  let unsent = () => 0
  let spanRoom: () => Promise<void> | undefined = () => undefined
  let traceDestination = ''
  if (config.traces !== undefined) {
    const destination = shownEndpoint(config.traces.url)
    traceDestination = destination
    let bounded: BoundedSpanProcessor | undefined
    const exporter = new CountingSpanExporter(await loadSpanExporter(config.traces), health, destination, (count) => bounded?.taken(count))
    const batching = new BatchSpanProcessor({
      exporter,
      maxQueueSize: batch.maxQueueSize,
      maxExportBatchSize: batch.maxExportBatchSize,
      scheduledDelayMillis: batch.scheduledDelayMillis,
      exportTimeoutMillis: batch.exportTimeoutMillis,
    })
    bounded = new BoundedSpanProcessor(batching, batch.maxQueueSize, (count) =>
      health.spansLost(count, 'the export queue was full', destination),
    )
    const queue = bounded
    unsent = () => queue.queued + exporter.inFlight
    spanRoom = () => queue.room(Math.ceil(batch.maxQueueSize / 2))
    tracerProvider = new SdkTracerProvider({ resource: sdkResource, spanProcessors: [bounded], idGenerator: ids(new RandomIdGenerator()) })
  }

  let meterProvider: InstanceType<typeof SdkMeterProvider> | undefined
  if (config.metrics !== undefined) {
    const exporter = new CountingMetricExporter(await loadMetricExporter(config.metrics), health, shownEndpoint(config.metrics.url))
    const reader = new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: batch.metricIntervalMillis,
      exportTimeoutMillis: Math.min(batch.metricTimeoutMillis, batch.metricIntervalMillis),
    })
    meterProvider = new SdkMeterProvider({ resource: sdkResource, readers: [reader] })
  }

  return {
    tracerProvider,
    meterProvider,
    spanRoom: () => spanRoom(),
    async shutdown(timeoutMs) {
      try {
        if (await settlesWithin(Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]), timeoutMs)) return
        const left = unsent()
        if (left > 0) health.spansLost(left, `not exported within ${timeoutMs} ms of the kernel's dispose`, traceDestination)
      } finally {
        health.close()
      }
    },
  }
}
