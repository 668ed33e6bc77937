import {
  type BatchSettings,
  type ContentCapture,
  DEFAULT_BATCH,
  DEFAULT_EXPORT_TIMEOUT_MS,
  DEFAULT_SERVICE_NAME,
  type ExportConfig,
  OTLP_PROTOCOLS,
  type OtlpProtocol,
  type SignalExport,
} from './export-config.js'
import { parseKeyValueList } from './key-value-list.js'
import { TelemetryConfigError } from './telemetry-config-error.js'

export type Environment = Readonly<Record<string, string | undefined>>

type Signal = 'TRACES' | 'METRICS'

const SIGNAL_PATH: Record<Signal, string> = { TRACES: 'v1/traces', METRICS: 'v1/metrics' }

/** The variables that name where to export; any of them set turns telemetry on in the default harness. */
export const ENDPOINT_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
] as const

/** A variable's value, where the specification reads an empty value as unset. */
export function variable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim()
  return value === undefined || value === '' ? undefined : value
}

/** `OTEL_SDK_DISABLED=true`: the specification's switch that turns the SDK off whatever else is set. */
export function sdkDisabled(env: Environment): boolean {
  return variable(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true'
}

/** True when the environment asks for OTLP export: an endpoint variable, or `otlp` in a `*_EXPORTER` variable. */
export function environmentRequestsExport(env: Environment): boolean {
  if (ENDPOINT_VARIABLES.some((name) => variable(env, name) !== undefined)) return true
  return ['OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER'].some((name) => variable(env, name)?.toLowerCase().split(',').includes('otlp'))
}

/**
 * Where traces and metrics go, from the OpenTelemetry SDK's variables: `OTEL_EXPORTER_OTLP_[TRACES_|METRICS_]ENDPOINT`,
 * `_PROTOCOL`, `_HEADERS`, `_TIMEOUT`, `_COMPRESSION`, `OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`, `OTEL_BSP_*` and
 * `OTEL_METRIC_EXPORT_*`, with the specification's defaults (OTLP/HTTP protobuf to localhost). A value the SDK would
 * skip with a diagnostic throws a `TelemetryConfigError` naming the variable.
 */
export function exportConfigFromEnvironment(env: Environment): ExportConfig {
  return {
    source: 'the environment',
    traces: exporterOn(env, 'OTEL_TRACES_EXPORTER') ? signalExport(env, 'TRACES') : undefined,
    metrics: exporterOn(env, 'OTEL_METRICS_EXPORTER') ? signalExport(env, 'METRICS') : undefined,
    batch: batchFromEnvironment(env),
  }
}

/** `OTEL_SERVICE_NAME` over `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, and the other attributes of that variable. */
export function resourceFromEnvironment(env: Environment): { serviceName: string; attributes: Record<string, string> } {
  const text = variable(env, 'OTEL_RESOURCE_ATTRIBUTES')
  const attributes = text === undefined ? {} : parseKeyValueList('OTEL_RESOURCE_ATTRIBUTES', text)
  const serviceName = variable(env, 'OTEL_SERVICE_NAME') ?? attributes['service.name'] ?? DEFAULT_SERVICE_NAME
  delete attributes['service.name']
  return { serviceName, attributes }
}

/** The GenAI conventions' opt-in, `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`: both kinds when true; undefined when unset. */
export function contentCaptureFromEnvironment(env: Environment): ContentCapture | undefined {
  const name = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'
  const value = variable(env, name)?.toLowerCase()
  if (value === undefined) return undefined
  if (value === 'true' || value === 'false') return { prompts: value === 'true', outputs: value === 'true' }
  throw new TelemetryConfigError(name, `expected true or false, got ${JSON.stringify(env[name])}`)
}

function exporterOn(env: Environment, name: string): boolean {
  const value = variable(env, name)
  if (value === undefined) return true
  const exporters = value
    .toLowerCase()
    .split(',')
    .map((part) => part.trim())
  const unsupported = exporters.filter((exporter) => exporter !== 'otlp' && exporter !== 'none')
  if (unsupported.length > 0) {
    throw new TelemetryConfigError(
      name,
      `the harness exports with otlp (or none), not ${unsupported.map((part) => JSON.stringify(part)).join(', ')}`,
    )
  }
  return exporters.includes('otlp')
}

function signalExport(env: Environment, signal: Signal): SignalExport {
  const protocol = protocolOf(env, signal)
  return {
    url: endpointOf(env, signal, protocol),
    protocol,
    headers: {
      ...headersOf(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...headersOf(env, `OTEL_EXPORTER_OTLP_${signal}_HEADERS`),
    },
    timeoutMillis:
      positiveInteger(env, `OTEL_EXPORTER_OTLP_${signal}_TIMEOUT`) ??
      positiveInteger(env, 'OTEL_EXPORTER_OTLP_TIMEOUT') ??
      DEFAULT_EXPORT_TIMEOUT_MS,
    compression: compressionOf(env, `OTEL_EXPORTER_OTLP_${signal}_COMPRESSION`) ?? compressionOf(env, 'OTEL_EXPORTER_OTLP_COMPRESSION'),
  }
}

function protocolOf(env: Environment, signal: Signal): OtlpProtocol {
  for (const name of [`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`, 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = variable(env, name)
    if (value === undefined) continue
    if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol
    throw new TelemetryConfigError(name, `expected one of ${OTLP_PROTOCOLS.join(', ')}, got ${JSON.stringify(value)}`)
  }
  return 'http/protobuf'
}

/**
 * The signal's own endpoint is used as it is; the shared one gets the signal's path appended for OTLP/HTTP (a gRPC
 * collector takes every signal at one address). Defaults: `http://localhost:4318` (HTTP), `http://localhost:4317` (gRPC).
 */
function endpointOf(env: Environment, signal: Signal, protocol: OtlpProtocol): string {
  const ownName = `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`
  const own = variable(env, ownName)
  if (own !== undefined) return httpUrl(ownName, own)
  const shared = variable(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  const base = shared === undefined ? (protocol === 'grpc' ? 'http://localhost:4317' : 'http://localhost:4318') : shared
  const url = httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base)
  if (protocol === 'grpc') return url
  return `${url.endsWith('/') ? url : `${url}/`}${SIGNAL_PATH[signal]}`
}

function httpUrl(name: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TelemetryConfigError(name, `${JSON.stringify(value)} is not a URL; expected e.g. http://127.0.0.1:4318`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TelemetryConfigError(name, `expected an http:// or https:// URL, got ${JSON.stringify(value)}`)
  }
  return value
}

function headersOf(env: Environment, name: string): Record<string, string> {
  const value = variable(env, name)
  return value === undefined ? {} : parseKeyValueList(name, value)
}

function compressionOf(env: Environment, name: string): 'gzip' | 'none' | undefined {
  const value = variable(env, name)
  if (value === undefined || value === 'gzip' || value === 'none') return value
  throw new TelemetryConfigError(name, `expected gzip or none, got ${JSON.stringify(value)}`)
}

function positiveInteger(env: Environment, name: string): number | undefined {
  const value = variable(env, name)
  if (value === undefined) return undefined
  const number = Number(value)
  if (Number.isInteger(number) && number > 0) return number
  throw new TelemetryConfigError(name, `expected a whole number of milliseconds (or items) above 0, got ${JSON.stringify(value)}`)
}

function batchFromEnvironment(env: Environment): BatchSettings {
  const batch: BatchSettings = {
    scheduledDelayMillis: positiveInteger(env, 'OTEL_BSP_SCHEDULE_DELAY') ?? DEFAULT_BATCH.scheduledDelayMillis,
    maxQueueSize: positiveInteger(env, 'OTEL_BSP_MAX_QUEUE_SIZE') ?? DEFAULT_BATCH.maxQueueSize,
    maxExportBatchSize: positiveInteger(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ?? DEFAULT_BATCH.maxExportBatchSize,
    exportTimeoutMillis: positiveInteger(env, 'OTEL_BSP_EXPORT_TIMEOUT') ?? DEFAULT_BATCH.exportTimeoutMillis,
    metricIntervalMillis: positiveInteger(env, 'OTEL_METRIC_EXPORT_INTERVAL') ?? DEFAULT_BATCH.metricIntervalMillis,
    metricTimeoutMillis: positiveInteger(env, 'OTEL_METRIC_EXPORT_TIMEOUT') ?? DEFAULT_BATCH.metricTimeoutMillis,
  }
  if (batch.maxExportBatchSize > batch.maxQueueSize) {
    throw new TelemetryConfigError(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
      `${batch.maxExportBatchSize} is above OTEL_BSP_MAX_QUEUE_SIZE (${batch.maxQueueSize}); a batch is taken from the queue`,
    )
  }
  return batch
}
