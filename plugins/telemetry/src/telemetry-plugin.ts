import { definePlugin, type KernelApi, type NoticeLevel, type Plugin, type Session, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { ProxyTracerProvider } from '@opentelemetry/api'
import { claudeCodeEnvironment } from './claude-code-environment.js'
import type { ExportConfig } from './config/export-config.js'
import { resolveSettings } from './config/resolve-settings.js'
import { LocalFeed } from './feed/local-feed.js'
import type { TraceFeed } from './feed/trace-feed.js'
import { type ExportStats, noLosses } from './sdk/export-health.js'
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, type TelemetryOptions } from './telemetry-options.js'
import { epochNow } from './trace/epoch-now.js'
import { createInstruments } from './trace/instruments.js'
import { type SessionInfo, sessionInfo } from './trace/session-info.js'
import { WorkerFeed } from './worker/worker-feed.js'

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
 * steering, compaction and subagents beside them). When it exports, the SDK and the OTLP exporter load and run on a
 * thread of their own, started only then; a setting that cannot be used is a notice, and the kernel runs without
 * telemetry. With providers of the caller's, spans and metrics are made here, as the events come.
 */
export function telemetry(options: TelemetryOptions = {}): TelemetryPlugin {
  const env = options.env ?? process.env
  let feed: TraceFeed | undefined
  let exported: ExportConfig | undefined
  let capture = { prompts: false, outputs: false }
  let worker: WorkerFeed | undefined
  const plugin = definePlugin({
    name: PLUGIN_NAME,
    setup(kernel) {
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
      if (settings.export !== undefined) {
        exported = settings.export
        // The SDK and the exporter load and run on a thread of their own: nothing of them is on a turn's path.
        worker = new WorkerFeed(
          { export: settings.export, resource: settings.resource, capture: settings.capture, spanAttributes: settings.spanAttributes },
          (text) => sessions.notice(text, kernel),
        )
        feed = worker
      } else {
        const { tracerProvider, meterProvider } = options
        if (tracerProvider === undefined && meterProvider === undefined) return
        feed = new LocalFeed({
          // Metrics alone: spans are still derived (they time the model calls) but go nowhere.
          tracer: (tracerProvider ?? new ProxyTracerProvider()).getTracer(SCOPE_NAME),
          instruments: meterProvider === undefined ? undefined : createInstruments(meterProvider.getMeter(SCOPE_NAME)),
          capture: settings.capture,
          spanAttributes: settings.spanAttributes,
        })
      }
      const fed = feed
      const describe = sessionDescriber(kernel)
      kernel.hooks.sessionEvent.tap(PLUGIN_NAME, ({ session, event }) => {
        sessions.saw(session, event.type)
        fed.record(describe(session), event, epochNow())
      })
      kernel.hooks.preCompact.tap({ name: PLUGIN_NAME, stage: STAGE_OBSERVE }, (decision, { session }) => {
        fed.compactionStarted(session.id, epochNow())
        return decision
      })
      return () => fed.stop('the kernel was disposed', options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS)
    },
  })
  return Object.freeze({
    ...plugin,
    claudeCodeEnvironment: (session: Session) =>
      claudeCodeEnvironment({ env, exported, capture, sessionIds: feed?.sessionIds(session.id) }),
    exportStats: (): ExportStats => ({ ...(worker?.stats ?? noLosses()) }),
  })
}

/**
 * Each session as its trace needs it (driver, provider, parent), made once per session: the driver and the provider
 * are the kernel's, read at the first event (the kernel is composed by then).
 */
function sessionDescriber(kernel: KernelApi): (session: Session) => SessionInfo {
  const known = new WeakMap<Session, SessionInfo>()
  let driver: string | undefined
  let provider: string | undefined
  return (session) => {
    let info = known.get(session)
    if (info !== undefined) return info
    if (driver === undefined) {
      driver = driverId(kernel)
      provider = DRIVER_PROVIDERS[driver] ?? modelProviderName(kernel)
    }
    info = sessionInfo(session, driver, provider)
    known.set(session, info)
    return info
  }
}

function driverId(kernel: KernelApi): string {
  try {
    return kernel.resolve('driver').id
  } catch {
    return 'native'
  }
}

/** The model vendor each driven program samples; the native loop's is the `model` service's `providerName`. */
const DRIVER_PROVIDERS: Record<string, string> = { 'claude-code': 'anthropic', codex: 'openai' }

function modelProviderName(kernel: KernelApi): string | undefined {
  try {
    return kernel.resolve('model').providerName
  } catch {
    return undefined
  }
}

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
