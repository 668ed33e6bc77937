import type { MeterProvider, TracerProvider } from '@opentelemetry/api'
import type { CodexOtelBlock } from './config/codex-otel.js'
import type { ContentCapture } from './config/export-config.js'

export interface TelemetryOptions {
  /** Where the `OTEL_*` variables are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
  /**
   * The user's Codex `[otel]` block and the file it came from: its `trace_exporter` and `metrics_exporter` are the
   * exporters when no `OTEL_*` variable names one; its `log_user_prompt`, `log_agent_responses`, `environment` and
   * `span_attributes` apply either way. The default harness reads it from Codex's config.toml.
   */
  codexOtel?: CodexOtelBlock
  /**
   * Providers of your own (an SDK you set up, in-memory exporters in a test): spans and metrics go to them, no
   * exporter is loaded and nothing is shut down at dispose (they are yours). Give one to leave the other signal out.
   */
  tracerProvider?: TracerProvider
  meterProvider?: MeterProvider
  /**
   * What of the conversation goes into spans, over `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` and Codex's
   * `log_user_prompt` / `log_agent_responses`. Default: nothing.
   */
  capture?: Partial<ContentCapture>
  /** How long `kernel.dispose()` waits for the last export before it drops what is left. Default 3000 ms. */
  shutdownTimeoutMs?: number
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 3000
