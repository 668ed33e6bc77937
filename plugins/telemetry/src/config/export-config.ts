/** The OTLP transports: OTLP/HTTP with protobuf or JSON bodies, or OTLP/gRPC. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc'

export const OTLP_PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json', 'grpc']

/**
 * What of the conversation goes into spans; nothing by default. `prompts`: the user's input (Codex's
 * `log_user_prompt`). `outputs`: the model's output, tool arguments and results, hook commands and compaction summaries
 * (Codex's `log_agent_responses`). `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` turns on both.
 */
export interface ContentCapture {
  prompts: boolean
  outputs: boolean
}

/** Where one signal goes. */
export interface SignalExport {
  /** OTLP/HTTP: the full URL posted to (`…/v1/traces`); gRPC: the collector's address. */
  url: string
  protocol: OtlpProtocol
  headers: Record<string, string>
  timeoutMillis: number
  compression: 'gzip' | 'none' | undefined
}

/** The batching that keeps export off the turn's path: spans wait in a bounded queue, metrics are read on an interval. */
export interface BatchSettings {
  scheduledDelayMillis: number
  maxQueueSize: number
  maxExportBatchSize: number
  exportTimeoutMillis: number
  metricIntervalMillis: number
  metricTimeoutMillis: number
}

/** Everything the exporting side needs, resolved from `OTEL_*` or Codex's `[otel]`. */
export interface ExportConfig {
  /** What the settings came from, for notices: `the environment`, or the Codex config file. */
  source: string
  /** Undefined when that signal is off (`OTEL_TRACES_EXPORTER=none`, no `trace_exporter` in `[otel]`). */
  traces: SignalExport | undefined
  metrics: SignalExport | undefined
  batch: BatchSettings
}

export const DEFAULT_SERVICE_NAME = 'harness'

export const DEFAULT_BATCH: BatchSettings = {
  scheduledDelayMillis: 5000,
  maxQueueSize: 2048,
  maxExportBatchSize: 512,
  exportTimeoutMillis: 30_000,
  metricIntervalMillis: 60_000,
  metricTimeoutMillis: 30_000,
}

/** The OTLP exporters' default timeout (`OTEL_EXPORTER_OTLP_TIMEOUT`). */
export const DEFAULT_EXPORT_TIMEOUT_MS = 10_000
