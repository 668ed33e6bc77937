import { definePlugin, type KernelApi, type NoticeLevel, type Plugin, type Session, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { ProxyTracerProvider } from '@opentelemetry/api'
import { claudeCodeEnvironment } from './claude-code-environment.js'
import type { ExportConfig } from './config/export-config.js'
import { resolveSettings } from './config/resolve-settings.js'
import { ExportHealth, type ExportStats } from './sdk/export-health.js'
import { type Pipeline, startPipeline } from './sdk/start-pipeline.js'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, type TelemetryOptions } from './telemetry-options.js'
import { epochNow } from './trace/epoch-now.js'
import { createInstruments } from './trace/instruments.js'
import { SessionTraces } from './trace/session-traces.js'
import type { TraceScope } from './trace/trace-scope.js'

export const PLUGIN_NAME = 'telemetry'
const SCOPE_NAME = '@harness-kernel/telemetry'

/** The telemetry plugin, with what a driver or a test asks of it. */
export interface TelemetryPlugin extends Plugin {
  /**
   * The variables a driven Claude Code needs to export its own telemetry to the same collector, its spans under this
   * session's span; empty while telemetry is off or before the session's first event. For `claudeCodeDriver({ environment })`.
   */
  claudeCodeEnvironment(session: Session): Record<string, string>
  /** What never reached the collector so far. */
  exportStats(): ExportStats
}

/**
 * OpenTelemetry traces and metrics of every session on any driver, derived from the session events all drivers record
 * (GenAI conventions: `invoke_agent` per turn, `chat` per model call, `execute_tool` per tool call; hook runs,
 * steering, compaction and subagents beside them). The SDK and the OTLP exporter load in `setup`, and only when there
 * is something to export; a setting that cannot be used is a notice, and the kernel runs without telemetry.
 */
export function telemetry(options: TelemetryOptions = {}): TelemetryPlugin {
  const env = options.env ?? process.env
  let traces: SessionTraces | undefined
  let exported: ExportConfig | undefined
  let capture = { prompts: false, outputs: false }
  let health: ExportHealth | undefined
  const plugin = definePlugin({
    name: PLUGIN_NAME,
    async setup(kernel) {
      const ownProviders = options.tracerProvider !== undefined || options.meterProvider !== undefined
      const outcome = resolveSettings({ env, codexOtel: options.codexOtel, ownProviders, capture: options.capture })
      const notices = new StartNotices(kernel)
      if ('off' in outcome) {
        notices.add(outcome.off.level, outcome.off.text)
        return
      }
      const settings = outcome.on
      for (const warning of settings.warnings) notices.add('warning', `telemetry: ${warning}`)
      capture = settings.capture
      const sessions = new LiveSessions()
      health = new ExportHealth((text) => sessions.notice(text, kernel))
      let pipeline: Pipeline | undefined
      if (settings.export !== undefined) {
        exported = settings.export
        pipeline = await startPipeline(settings.export, settings.resource, health)
      }
      const tracerProvider = options.tracerProvider ?? pipeline?.tracerProvider
      const meterProvider = options.meterProvider ?? pipeline?.meterProvider
      if (tracerProvider === undefined && meterProvider === undefined) return
      traces = new SessionTraces(traceScope(kernel, settings, tracerProvider, meterProvider))
      const recorded = traces
      kernel.hooks.sessionEvent.tap(PLUGIN_NAME, ({ session, event }) => {
        sessions.saw(session, event.type)
        recorded.record(session, event)
      })
      kernel.hooks.preCompact.tap({ name: PLUGIN_NAME, stage: STAGE_OBSERVE }, (decision, { session }) => {
        recorded.of(session)?.compactionStarted(epochNow())
        return decision
      })
      return async () => {
        recorded.endAll('the kernel was disposed')
        if (pipeline === undefined) return
        await pipeline.shutdown(options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS)
      }
    },
  })
  return Object.freeze({
    ...plugin,
    claudeCodeEnvironment: (session: Session) => claudeCodeEnvironment({ env, exported, capture, sessionSpan: traces?.of(session)?.span }),
    exportStats: (): ExportStats => ({ ...(health?.stats ?? { spansDropped: 0, metricExportsFailed: 0 }) }),
  })
}

function traceScope(
  kernel: KernelApi,
  settings: { capture: TraceScope['capture']; spanAttributes: Record<string, string> },
  tracerProvider: import('@opentelemetry/api').TracerProvider | undefined,
  meterProvider: import('@opentelemetry/api').MeterProvider | undefined,
): TraceScope {
  let driver: string | undefined
  const driverId = () => {
    if (driver !== undefined) return driver
    try {
      driver = kernel.resolve('driver').id
    } catch {
      driver = 'native'
    }
    return driver
  }
  return {
    // Metrics alone: spans are still derived (they time the model calls) but go nowhere.
    tracer: (tracerProvider ?? new ProxyTracerProvider()).getTracer(SCOPE_NAME),
    instruments: meterProvider === undefined ? undefined : createInstruments(meterProvider.getMeter(SCOPE_NAME)),
    capture: settings.capture,
    spanAttributes: settings.spanAttributes,
    driver: driverId,
    provider: () => DRIVER_PROVIDERS[driverId()],
  }
}

/** The model vendor each driven program samples; the native loop's provider is whatever the `model` service is. */
const DRIVER_PROVIDERS: Record<string, string> = { 'claude-code': 'anthropic', codex: 'openai' }

/** Configuration notices, told to each session as it starts (a plugin's setup has no session to tell). */
class StartNotices {
  readonly #pending: { level: NoticeLevel; text: string }[] = []

  constructor(kernel: KernelApi) {
    kernel.hooks.sessionStart.tap(PLUGIN_NAME, ({ session }) => {
      for (const { level, text } of this.#pending) session.notice(level, text, PLUGIN_NAME)
    })
  }

  add(level: NoticeLevel, text: string): void {
    this.#pending.push({ level, text })
  }
}

/** The session an export problem is told to: the last one seen that has not ended, else the kernel's logger. */
class LiveSessions {
  #current: Session | undefined

  saw(session: Session, type: string): void {
    if (type === 'session/end') {
      if (this.#current === session) this.#current = undefined
    } else this.#current = session
  }

  notice(text: string, kernel: KernelApi): void {
    const session = this.#current
    if (session !== undefined) {
      try {
        session.notice('warning', text, PLUGIN_NAME)
        return
      } catch {
        // The session's log can no longer be written: the logger is left.
      }
    }
    kernel.resolve('logger').warn(text)
  }
}
