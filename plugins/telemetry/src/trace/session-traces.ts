import type { SessionEvent } from '@harness-kernel/kernel'
import type { SessionInfo } from './session-info.js'
import { SessionTrace } from './session-trace.js'
import type { SpanIds } from './span-ids.js'
import type { TraceScope } from './trace-scope.js'

/** Every session's trace of one kernel, by session id; a subagent's finds its parent's the same way. */
export class SessionTraces {
  readonly #scope: TraceScope
  readonly #traces = new Map<string, SessionTrace>()

  constructor(scope: TraceScope) {
    this.#scope = scope
  }

  /**
   * One event of one session, as it was appended, at `now` (ms since the epoch). `ids`: the ids the session's span
   * must have, when this is its first event and they were chosen already.
   */
  record(session: SessionInfo, event: SessionEvent, now: number, ids?: SpanIds): void {
    let trace = this.#traces.get(session.id)
    if (trace === undefined) {
      // A session's first event here opens its span: `session/start`, or `session/resume` in a later process.
      const link = session.parent
      const parent = link === undefined ? undefined : this.#traces.get(link.sessionId)?.contextOfCall(link.callId)
      trace = new SessionTrace(this.#scope, session, parent, event, now, ids)
      this.#traces.set(session.id, trace)
    }
    trace.on(event, now)
    // Ended: a resume of the session in this process opens a new span.
    if (trace.ended) this.#traces.delete(session.id)
  }

  /** `agent/pre-compact` fired: the compaction's span starts now. */
  compactionStarted(sessionId: string, now: number): void {
    this.#traces.get(sessionId)?.compactionStarted(now)
  }

  /** The session's trace, if it has one. */
  of(sessionId: string): SessionTrace | undefined {
    return this.#traces.get(sessionId)
  }

  /** Ends every span still open: the kernel is going away. */
  endAll(reason: string, now: number): void {
    for (const trace of this.#traces.values()) trace.end(reason, now)
    this.#traces.clear()
  }
}
