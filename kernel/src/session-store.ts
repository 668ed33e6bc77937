import type { ProcessLedger } from './process/process-ledger.js'
import type { SessionEvent, SessionEventBody } from './session-events.js'

/** The `SessionStore` contract this kernel implements against; a store declares it (`specificationVersion`). */
export const SESSION_STORE_SPEC = 'session-store-v2'

export interface SessionSummary {
  id: string
  /** Where the session's log is: a file path, or a store's URL for the thread (never with a password). */
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

/**
 * An open, append-only log for one session, written by the holder of the session's lock. `append` numbers the event
 * and returns at once; a store that writes behind (a database) persists appends in order, and `sync` waits for them.
 */
export interface SessionLog {
  readonly path: string
  /** Throws a `KernelError` once the log is lost (`onLost`) or closed. */
  append(event: SessionEventBody): SessionEvent
  /** Settles when everything appended so far is on stable storage; rejects with the cause when it cannot be. */
  sync(): Promise<void>
  /** Writes what is pending and closes the log. */
  close(): Promise<void>
  /**
   * Called once when the store finds it can no longer write this log: another process took the session's lock over
   * (its epoch grew) or the storage failed for good. Appends after it throw; the kernel interrupts the session's turns
   * and kills its processes. A file log never loses its session.
   */
  onLost(listener: (error: Error) => void): void
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
  /** The holder of a stale lock (its process is gone, or its lease ran out) that was taken over, if any. */
  readonly tookOver: SessionLockHolder | undefined
  /**
   * The lock's generation, for stores that fence: it grows at every take-over, and a write under an older epoch is
   * refused. A file lock has none.
   */
  readonly epoch?: number
  /** Gives the lock up; a lock taken over by another process since is left alone. Idempotent. */
  release(): Promise<void>
}

export interface ForkOptions {
  /** The last turn to copy; it must have ended. Default: the whole log (a turn still open is copied open). */
  throughTurnId?: string
}

/** The `sessionStore` service (contract `session-store-v2`). Every store passes the shared contract suite. */
export interface SessionStore {
  readonly specificationVersion: typeof SESSION_STORE_SPEC
  /** Where the session's log is, as `SessionSummary.path` and hooks' `transcript_path` give it. */
  pathFor(sessionId: string): string
  /**
   * Takes the session's single-writer lock, before its log is created or loaded. A lock held by a live process
   * (this one included) or by another host is a `KernelError` naming the holder; a stale one is taken over.
   */
  lock(sessionId: string): Promise<SessionLock>
  /**
   * The session's record of the process groups its kernel started and has not seen end; read on resume to kill what a
   * crashed kernel left running. Used only under the session's lock.
   */
  processLedger(sessionId: string): ProcessLedger
  /** A new, empty log, written under `lock`. A session that exists is a `KernelError`. */
  create(sessionId: string, lock: SessionLock): Promise<SessionLog>
  /** Every event of the session, in order. A session that does not exist is a `KernelError` saying so. */
  load(sessionId: string): Promise<LoadedSession>
  /** Reopens an existing log for appending under `lock` (after `load`), continuing its sequence numbers. */
  reopen(sessionId: string, lastSeq: number, lock: SessionLock): Promise<SessionLog>
  list(): Promise<SessionSummary[]>
  /** One session's summary. */
  summary(sessionId: string): Promise<SessionSummary>
  /** Names a session (`undefined` clears the name). Kept beside the log, not in it. */
  setName(sessionId: string, name: string | undefined): Promise<void>
  /** Archives a session or brings it back. Kept beside the log, not in it. */
  setArchived(sessionId: string, archived: boolean): Promise<void>
  /**
   * Copies a session's log into a new session `forkId` (to resume): a new `session/start` with `forkedFrom`,
   * then the events up to the end of `throughTurnId`. The copied session's own lifecycle (`session/resume`,
   * `session/end`) and drivers' native session ids (`driver/session`) are left out: a fork never shares a
   * driven program's session with its source.
   */
  fork(sessionId: string, forkId: string, options?: ForkOptions): Promise<void>
}
