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
  /** Given with `setName`. */
  name: string | undefined
  /** Set with `setArchived`. The log is unchanged: listings that honour it leave the session out. */
  archived: boolean
  /** The session it was forked from (`fork`). */
  forkedFrom: string | undefined
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

export interface ForkOptions {
  /** The last turn to copy; it must have ended. Default: the whole log (a turn still open is copied open). */
  throughTurnId?: string
}

/** The `sessionStore` service. */
export interface SessionStore {
  pathFor(sessionId: string): string
  create(sessionId: string): SessionLog
  load(sessionId: string): LoadedSession
  /** Reopens an existing log for appending (after `load`), continuing its sequence numbers. */
  reopen(sessionId: string, lastSeq: number): SessionLog
  list(): SessionSummary[]
  /** One session's summary. */
  summary(sessionId: string): SessionSummary
  /** Names a session (`undefined` clears the name). Kept beside the log, not in it. */
  setName(sessionId: string, name: string | undefined): void
  /** Archives a session or brings it back. Kept beside the log, not in it. */
  setArchived(sessionId: string, archived: boolean): void
  /**
   * Copies a session's log into a new session `forkId` (to resume): a new `session/start` with `forkedFrom`,
   * then the events up to the end of `throughTurnId`. The copied session's own lifecycle (`session/resume`,
   * `session/end`) and drivers' native session ids (`driver/session`) are left out: a fork never shares a
   * driven program's session with its source.
   */
  fork(sessionId: string, forkId: string, options?: ForkOptions): void
}
