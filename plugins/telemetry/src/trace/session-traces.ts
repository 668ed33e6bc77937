import type { Session, SessionEvent } from '@harness-kernel/kernel'
import { epochNow } from './epoch-now.js'
import { SessionTrace } from './session-trace.js'
import type { TraceScope } from './trace-scope.js'

/** Every session's trace of one kernel, found by its `Session` object; a subagent's finds its parent's the same way. */
export class SessionTraces {
  readonly #scope: TraceScope
  readonly #traces = new WeakMap<Session, SessionTrace>()
  /** Sessions not yet ended, so a dispose that comes first still ends (and so exports) their spans. */
  readonly #open = new Set<SessionTrace>()

  constructor(scope: TraceScope) {
    this.#scope = scope
  }

  /** The `session/event` tap: one event of one session, as it is appended. */
  record(session: Session, event: SessionEvent): void {
    const now = epochNow()
    let trace = this.#traces.get(session)
    if (trace === undefined) {
      // A session's first event here opens its span: `session/start`, or `session/resume` in a later process.
      const link = session.parent
      const parent = link === undefined ? undefined : this.#traces.get(link.session)?.contextOfCall(link.callId)
      trace = new SessionTrace(this.#scope, session, parent, event, now)
      this.#traces.set(session, trace)
      this.#open.add(trace)
    }
    trace.on(event, now)
    if (trace.ended) this.#open.delete(trace)
  }

  /** The session's trace, if it has one (the W3C trace context handed to a driven program comes from it). */
  of(session: Session): SessionTrace | undefined {
    return this.#traces.get(session)
  }

  /** Ends every span still open: the kernel is going away. */
  endAll(reason: string): void {
    const now = epochNow()
    for (const trace of this.#open) trace.end(reason, now)
    this.#open.clear()
  }
}
