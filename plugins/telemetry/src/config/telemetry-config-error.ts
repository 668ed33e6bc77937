/** A setting telemetry cannot use, named by where it was read (`OTEL_EXPORTER_OTLP_PROTOCOL`, `[otel] trace_exporter`). */
export class TelemetryConfigError extends Error {
  override readonly name = 'TelemetryConfigError'
  /** The variable or key at fault. */
  readonly setting: string

  constructor(setting: string, problem: string) {
    super(`${setting}: ${problem}`)
    this.setting = setting
  }
}
