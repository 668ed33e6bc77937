import type { SessionEvent, SessionEventBody } from './session-events.js'

export interface SessionSummary {
  id: string
  path: string
  cwd: string | undefined
  createdAt: string | undefined
  updatedAt: string | undefined
  turns: number
  ended: boolean
  firstPrompt: string | undefined
}

/** An open, append-only log for one session. */
export interface SessionLog {
  readonly path: string
  append(event: SessionEventBody): SessionEvent
  /** Forces what was appended to stable storage. */
  sync(): void
  close(): void
}

export interface LoadedSession {
  events: SessionEvent[]
  /** A torn last line that was dropped on load, if any. */
  droppedTail: string | undefined
}

/** The `sessionStore` service. */
export interface SessionStore {
  pathFor(sessionId: string): string
  create(sessionId: string): SessionLog
  load(sessionId: string): LoadedSession
  /** Reopens an existing log for appending (after `load`), continuing its sequence numbers. */
  reopen(sessionId: string, lastSeq: number): SessionLog
  list(): SessionSummary[]
}
