import type { SessionEvent } from '@harness-kernel/kernel'
import type { SessionInfo } from '../trace/session-info.js'
import type { SpanIds } from '../trace/span-ids.js'

/** Where the session events go to become spans and metrics: this thread, or the export thread. */
export interface TraceFeed {
  /** One event of a session as it is appended, at `now` (ms since the epoch). */
  record(session: SessionInfo, event: SessionEvent, now: number): void
  /** `agent/pre-compact` fired for the session. */
  compactionStarted(sessionId: string, now: number): void
  /** The ids of the session's span, from its first event until it ends. */
  sessionIds(sessionId: string): (SpanIds & { sampled?: boolean }) | undefined
  /** Ends every open span, exports what is queued (within `timeoutMs`) and stops. */
  stop(reason: string, timeoutMs: number): Promise<void>
}
