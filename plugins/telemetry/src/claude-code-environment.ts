import type { ContentCapture, ExportConfig, SignalExport } from './config/export-config.js'
import type { Environment } from './config/otel-environment.js'
import type { SpanIds } from './trace/span-ids.js'

/**
 * The variables that make a driven Claude Code export its own telemetry (metrics, its log events and, with its beta
 * tracing, spans) to the collector the harness exports to, its spans under the session's span (`TRACEPARENT`, which
 * Claude Code reads in headless mode since 2.1.110). A variable already in `env` is the user's and is left as it is;
 * none is given when the harness exports nothing itself.
 */
export function claudeCodeEnvironment(options: {
  env: Environment
  exported: ExportConfig | undefined
  capture: ContentCapture
  /** The session span's ids; `sampled` unless a sampler of the caller's said otherwise. */
  sessionIds: (SpanIds & { sampled?: boolean }) | undefined
}): Record<string, string> {
  const { env, exported, capture, sessionIds } = options
  if (exported === undefined || (exported.traces === undefined && exported.metrics === undefined)) return {}
  const wanted: Record<string, string> = { CLAUDE_CODE_ENABLE_TELEMETRY: '1' }
  // Claude Code (2.1.336) picks its exporters by the shared protocol variable: the signals' own are not enough.
  const protocol = exported.traces?.protocol ?? exported.metrics?.protocol
  if (protocol !== undefined) wanted.OTEL_EXPORTER_OTLP_PROTOCOL = protocol
  if (exported.traces !== undefined) {
    Object.assign(
      wanted,
      { OTEL_TRACES_EXPORTER: 'otlp', CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: '1' },
      signalVariables('TRACES', exported.traces),
    )
  }
  if (exported.metrics !== undefined) Object.assign(wanted, { OTEL_METRICS_EXPORTER: 'otlp' }, signalVariables('METRICS', exported.metrics))
  // Claude Code's log events go to the collector the user named for every signal (the harness exports no logs).
  const shared = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  if (shared || env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT?.trim()) wanted.OTEL_LOGS_EXPORTER = 'otlp'
  if (shared && protocol !== undefined) {
    wanted.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT = protocol === 'grpc' ? shared : `${shared.replace(/\/$/, '')}/v1/logs`
  }
  if (capture.prompts) wanted.OTEL_LOG_USER_PROMPTS = '1'
  if (capture.outputs) Object.assign(wanted, { OTEL_LOG_ASSISTANT_RESPONSES: '1', OTEL_LOG_TOOL_DETAILS: '1' })
  if (sessionIds !== undefined) {
    wanted.TRACEPARENT = `00-${sessionIds.traceId}-${sessionIds.spanId}-${sessionIds.sampled === false ? '00' : '01'}`
  }
  const forwarded: Record<string, string> = {}
  for (const [name, value] of Object.entries(wanted)) if (env[name] === undefined || env[name] === '') forwarded[name] = value
  return forwarded
}

function signalVariables(signal: 'TRACES' | 'METRICS', exported: SignalExport): Record<string, string> {
  const variables: Record<string, string> = {
    [`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]: exported.url,
    [`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`]: exported.protocol,
  }
  const headers = Object.entries(exported.headers)
  if (headers.length > 0) {
    variables[`OTEL_EXPORTER_OTLP_${signal}_HEADERS`] = headers
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
      .join(',')
  }
  return variables
}
