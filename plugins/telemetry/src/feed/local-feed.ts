import type { SessionEvent } from '@harness-kernel/kernel'
import { TraceFlags } from '@opentelemetry/api'
import { epochNow } from '../trace/epoch-now.js'
import type { SessionInfo } from '../trace/session-info.js'
import { SessionTraces } from '../trace/session-traces.js'
import type { SpanIds } from '../trace/span-ids.js'
import type { TraceScope } from '../trace/trace-scope.js'
import type { TraceFeed } from './trace-feed.js'

const INVALID_TRACE_ID = '00000000000000000000000000000000'

/** Spans made here, as the events come, on providers the caller brought (and shuts down). */
export class LocalFeed implements TraceFeed {
  readonly #traces: SessionTraces

  constructor(scope: TraceScope) {
    this.#traces = new SessionTraces(scope)
  }

  record(session: SessionInfo, event: SessionEvent, now: number): void {
    this.#traces.record(session, event, now)
  }

  compactionStarted(sessionId: string, now: number): void {
    this.#traces.compactionStarted(sessionId, now)
  }

  sessionIds(sessionId: string): (SpanIds & { sampled: boolean }) | undefined {
    const context = this.#traces.of(sessionId)?.span.spanContext()
    if (context === undefined || context.traceId === INVALID_TRACE_ID) return undefined
    return { traceId: context.traceId, spanId: context.spanId, sampled: (context.traceFlags & TraceFlags.SAMPLED) !== 0 }
  }

  async stop(reason: string, _timeoutMs: number): Promise<void> {
    this.#traces.endAll(reason, epochNow())
  }
}
