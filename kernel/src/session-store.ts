import type { ProcessLedger } from './process/process-ledger.js'
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
  /** For a subagent's session: the session that started it, and as which agent (`kernel.startSubagent`). */
  parent: { sessionId: string; agentId: string; agentType: string } | undefined
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

/** Who holds a session's lock. */
export interface SessionLockHolder {
  pid: number
  host: string
  /** When the lock was taken (ISO time). */
  since: string
}

/** A session's single-writer lock (`SessionStore.lock`). */
export interface SessionLock {
  readonly path: string
  /** The holder of a stale lock (its process is gone) that was taken over, if any. */
  readonly tookOver: SessionLockHolder | undefined
  /** Gives the lock up; a lock taken over by another process since is left alone. Idempotent. */
  release(): void
}

export interface ForkOptions {
  /** The last turn to copy; it must have ended. Default: the whole log (a turn still open is copied open). */
  throughTurnId?: string
}

/** The `sessionStore` service. */
export interface SessionStore {
  pathFor(sessionId: string): string
  /**
   * Takes the session's single-writer lock, before its log is created or loaded. A lock held by a live process
   * (this one included) or by another host is a `KernelError` naming the holder; a stale one is taken over.
   */
  lock(sessionId: string): SessionLock
  /**
   * The session's record of the process groups its kernel started and has not seen end, kept beside the log; read on
   * resume to kill what a crashed kernel left running. Used only under the session's lock.
   */
  processLedger(sessionId: string): ProcessLedger
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
