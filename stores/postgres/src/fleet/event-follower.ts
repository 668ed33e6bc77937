import type { SessionEvent } from '@harness-kernel/kernel'
import type { Database } from '../database.js'
import { pause } from '../pause.js'
import { readEventsAfter } from '../thread-statements.js'
import { isTransientError } from '../transient-errors.js'

/** Events read per query; a full page is followed by the next at once. */
const PAGE = 500
/** Waits after a failed read while the database is out of reach: doubling, up to the cap. */
const FIRST_RETRY_MS = 100
const MAX_RETRY_MS = 2000

export interface FollowRequest {
  threadId: string
  afterSeq: number
  onEvents: (events: SessionEvent[]) => void
  signal: AbortSignal
  pollMs: number
}

/**
 * Reads a thread's events past a cursor every `pollMs` and hands them on in order, each once, until `signal` aborts.
 * Polling by seq misses nothing: a thread's events are numbered without gaps and committed in order, one writer's
 * batches one after another, fenced on the thread's row. A read that fails because the database is out of reach is
 * tried again, with a growing pause, from the same cursor; any other failure (or a throw of `onEvents`) rejects.
 */
export async function followEvents(db: Database, request: FollowRequest): Promise<void> {
  const { threadId, onEvents, signal, pollMs } = request
  let cursor = request.afterSeq
  let failures = 0
  while (!signal.aborted) {
    let events: SessionEvent[]
    try {
      events = await readEventsAfter(db, db.tables, threadId, cursor, PAGE)
    } catch (error) {
      // A read cut short by the end it was asked for (the store closing its pool) is no failure.
      if (signal.aborted) return
      if (!isTransientError(error)) throw error
      await pause(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++), signal)
      continue
    }
    failures = 0
    if (signal.aborted) return
    const last = events.at(-1)
    if (last !== undefined) {
      cursor = last.seq
      onEvents(events)
    }
    if (events.length < PAGE) await pause(pollMs, signal)
  }
}
