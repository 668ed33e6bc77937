import { type Environment, environmentRequestsExport, sdkDisabled } from './otel-environment.js'

/**
 * Whether the default harness turns telemetry on: an `OTEL_EXPORTER_OTLP_*ENDPOINT` variable, `otlp` in
 * `OTEL_TRACES_EXPORTER` or `OTEL_METRICS_EXPORTER`, or a Codex `[otel]` block whose `trace_exporter` or
 * `metrics_exporter` names an exporter; never with `OTEL_SDK_DISABLED=true`. Cheap and free of OpenTelemetry imports,
 * so a command line can ask before it loads anything (`@harness-kernel/telemetry/requested`). A value it cannot
 * read counts as asking: the plugin then says what is wrong with it.
 */
export function telemetryRequested(env: Environment, codexOtel?: unknown): boolean {
  if (sdkDisabled(env)) return false
  if (environmentRequestsExport(env)) return true
  if (typeof codexOtel !== 'object' || codexOtel === null) return codexOtel !== undefined
  const { trace_exporter: traces, metrics_exporter: metrics } = codexOtel as Record<string, unknown>
  return [traces, metrics].some((exporter) => exporter !== undefined && exporter !== 'none' && exporter !== 'statsig')
}
