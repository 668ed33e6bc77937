import { type ContentCapture, DEFAULT_BATCH, DEFAULT_EXPORT_TIMEOUT_MS, type ExportConfig, type SignalExport } from './export-config.js'
import { TelemetryConfigError } from './telemetry-config-error.js'

/** Codex's `[otel]` table as the user's Codex configuration sets it, and where it was read. */
export interface CodexOtelBlock {
  table: unknown
  /** The config.toml (or `-c` flag) that set it, for notices. */
  source: string
}

/** What the harness takes from `[otel]`. */
export interface CodexOtelSettings {
  /** Undefined when neither `trace_exporter` nor `metrics_exporter` is an OTLP exporter. */
  export: ExportConfig | undefined
  /** `exporter` (Codex's log events) is an OTLP exporter while neither of the others is: the harness exports no logs. */
  logsOnly: boolean
  /** `log_user_prompt`, `log_agent_responses`, where set. */
  capture: Partial<ContentCapture>
  /** `environment`: the `deployment.environment.name` resource attribute. */
  environment: string | undefined
  /** `span_attributes`: added to every span. */
  spanAttributes: Record<string, string>
}

/**
 * Reads Codex's `[otel]` block (Codex 0.171.0's shape): `exporter`, `trace_exporter` and `metrics_exporter` are
 * `"none"`, `"statsig"`, `{ otlp-http = { endpoint, protocol = "binary" | "json", headers } }` or
 * `{ otlp-grpc = { endpoint, headers } }`; an OTLP/HTTP endpoint is the signal's full URL (Codex appends nothing). As in
 * Codex, traces are off unless `trace_exporter` is set, and `statsig` (Codex's own metrics sink) exports nothing here.
 * What the harness cannot honour as written (`tls`, `headers_helper`) or a value of the wrong shape throws a
 * `TelemetryConfigError` naming the key and the file.
 */
export function parseCodexOtel(block: CodexOtelBlock): CodexOtelSettings {
  const at = (key: string) => `[otel] ${key} in ${block.source}`
  const table = block.table
  if (!isTable(table)) throw new TelemetryConfigError(`[otel] in ${block.source}`, 'expected a table')
  if (table.headers_helper !== undefined) {
    throw new TelemetryConfigError(
      at('headers_helper'),
      'the harness does not run header helpers; set the headers in OTEL_EXPORTER_OTLP_HEADERS instead',
    )
  }
  const traces = exporterOf(table.trace_exporter, 'trace_exporter', at)
  const metrics = exporterOf(table.metrics_exporter, 'metrics_exporter', at)
  const logs = exporterOf(table.exporter, 'exporter', at)
  const capture: Partial<ContentCapture> = {}
  const prompts = booleanOf(table.log_user_prompt, at('log_user_prompt'))
  const outputs = booleanOf(table.log_agent_responses, at('log_agent_responses'))
  if (prompts !== undefined) capture.prompts = prompts
  if (outputs !== undefined) capture.outputs = outputs
  const environment = table.environment
  if (environment !== undefined && typeof environment !== 'string') throw new TelemetryConfigError(at('environment'), 'expected a string')
  return {
    export:
      traces === undefined && metrics === undefined ? undefined : { source: block.source, traces, metrics, batch: { ...DEFAULT_BATCH } },
    logsOnly: logs !== undefined && traces === undefined && metrics === undefined,
    capture,
    environment,
    spanAttributes: stringTable(table.span_attributes, at('span_attributes')),
  }
}

function exporterOf(value: unknown, key: string, at: (key: string) => string): SignalExport | undefined {
  if (value === undefined || value === 'none' || value === 'statsig') return undefined
  if (typeof value === 'string') {
    throw new TelemetryConfigError(at(key), `expected "none", "statsig", { otlp-http = { … } } or { otlp-grpc = { … } }, got "${value}"`)
  }
  if (!isTable(value) || Object.keys(value).length !== 1) {
    throw new TelemetryConfigError(at(key), 'expected "none", "statsig", or a table with one key: otlp-http or otlp-grpc')
  }
  const [kind, settings] = Object.entries(value)[0] as [string, unknown]
  const where = `${key}.${kind}`
  if (kind !== 'otlp-http' && kind !== 'otlp-grpc')
    throw new TelemetryConfigError(at(key), `unknown exporter "${kind}"; expected otlp-http or otlp-grpc`)
  if (!isTable(settings)) throw new TelemetryConfigError(at(where), 'expected a table with endpoint (and headers)')
  if (settings.tls !== undefined) {
    throw new TelemetryConfigError(
      at(`${where}.tls`),
      'the harness does not read Codex TLS settings; set OTEL_EXPORTER_OTLP_CERTIFICATE, OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY instead',
    )
  }
  const endpoint = settings.endpoint
  if (typeof endpoint !== 'string' || !isHttpUrl(endpoint)) {
    throw new TelemetryConfigError(at(`${where}.endpoint`), 'expected an http:// or https:// URL')
  }
  let protocol: SignalExport['protocol'] = 'grpc'
  if (kind === 'otlp-http') {
    const wire = settings.protocol
    if (wire !== 'binary' && wire !== 'json') throw new TelemetryConfigError(at(`${where}.protocol`), 'expected "binary" or "json"')
    protocol = wire === 'binary' ? 'http/protobuf' : 'http/json'
  }
  return {
    url: endpoint,
    protocol,
    headers: stringTable(settings.headers, at(`${where}.headers`)),
    timeoutMillis: DEFAULT_EXPORT_TIMEOUT_MS,
    compression: undefined,
  }
}

function booleanOf(value: unknown, setting: string): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value
  throw new TelemetryConfigError(setting, 'expected true or false')
}

function stringTable(value: unknown, setting: string): Record<string, string> {
  if (value === undefined) return {}
  if (!isTable(value) || !Object.values(value).every((item) => typeof item === 'string')) {
    throw new TelemetryConfigError(setting, 'expected a table of strings')
  }
  return { ...(value as Record<string, string>) }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
}
