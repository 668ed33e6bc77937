import { hostname } from 'node:os'
import {
  type ForkOptions,
  KernelError,
  type LoadedSession,
  type ProcessGroupRecord,
  type ProcessLedger,
  SESSION_STORE_SPEC,
  type SessionEvent,
  type SessionLock,
  type SessionLockHolder,
  type SessionStore,
  type SessionSummary,
} from '../../src/index.js'
import { MemorySessionLog } from './memory-session-log.js'

interface StoredSession {
  events: SessionEvent[]
  name?: string | undefined
  archived: boolean
  ledger: Map<number, ProcessGroupRecord>
}

interface HeldLock {
  epoch: number
  holder: SessionLockHolder
  /** Its lease ran out: the next `lock` takes it over. */
  stale: boolean
}

/** Syncs held back by a test (`holdSyncs`). */
export interface HeldSyncs {
  /** Settles once a sync waits. */
  readonly requested: Promise<void>
  /** Lets the waiting syncs (and later ones) resolve, or reject with `error`. */
  settle(error?: Error): void
  wait(): Promise<void>
}

const NOT_FORKED = new Set<string>(['session/start', 'session/resume', 'session/end', 'driver/session'])

/**
 * A session store in memory that fences as a database store does: each lock has an epoch, a take-over raises it, and
 * a log written under an older epoch is lost. `takeOver` plays another process taking a session over.
 */
export class MemorySessionStore implements SessionStore {
  readonly specificationVersion = SESSION_STORE_SPEC
  readonly #sessions = new Map<string, StoredSession>()
  readonly #locks = new Map<string, HeldLock>()
  readonly #epochs = new Map<string, number>()
  readonly #logs = new Map<string, Set<{ log: MemorySessionLog; epoch: number }>>()
  /** The epochs of the locks released, in order. */
  readonly released: number[] = []
  #heldSyncs: HeldSyncs | undefined

  pathFor(sessionId: string): string {
    return `memory://sessions/${sessionId}`
  }

  async lock(sessionId: string): Promise<SessionLock> {
    const held = this.#locks.get(sessionId)
    if (held !== undefined && !held.stale) {
      const { pid, host, since } = held.holder
      throw new KernelError(`session ${sessionId} is locked by pid ${pid} on ${host}, since ${since}`)
    }
    const epoch = (this.#epochs.get(sessionId) ?? 0) + 1
    this.#epochs.set(sessionId, epoch)
    const mine: HeldLock = { epoch, holder: { pid: process.pid, host: hostname(), since: new Date().toISOString() }, stale: false }
    this.#locks.set(sessionId, mine)
    return {
      path: `${this.pathFor(sessionId)}/lock`,
      tookOver: held?.holder,
      epoch,
      release: async () => {
        this.released.push(epoch)
        if (this.#locks.get(sessionId) === mine) this.#locks.delete(sessionId)
      },
    }
  }

  /** The lock's lease ran out: the next `lock` takes it over, and its logs find out when they write. */
  makeStale(sessionId: string): void {
    const held = this.#locks.get(sessionId)
    if (held !== undefined) held.stale = true
  }

  /** Another process takes the session over; its logs here are lost at once, as a store watching its lease finds. */
  async takeOver(sessionId: string): Promise<void> {
    this.makeStale(sessionId)
    const epoch = (await this.lock(sessionId)).epoch ?? 0
    for (const open of this.#logs.get(sessionId) ?? []) {
      if (open.epoch < epoch) open.log.lose(new KernelError(`session ${sessionId} was taken over by another process (epoch ${epoch})`))
    }
  }

  /** Holds every sync back until `settle`: `requested` settles when the first one waits. */
  holdSyncs(): HeldSyncs {
    let requested!: () => void
    let settle!: (error?: Error) => void
    const settled = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error))
    })
    settled.catch(() => {})
    const held: HeldSyncs = {
      requested: new Promise<void>((resolve) => {
        requested = resolve
      }),
      settle: (error) => {
        if (this.#heldSyncs === held) this.#heldSyncs = undefined
        settle(error)
      },
      wait: () => {
        requested()
        return settled
      },
    }
    this.#heldSyncs = held
    return held
  }

  processLedger(sessionId: string): ProcessLedger {
    const groups = this.#session(sessionId).ledger
    return {
      path: `${this.pathFor(sessionId)}/processes`,
      started: ({ pgid, command, startTicks }) => {
        groups.set(pgid, {
          pgid,
          command,
          startedAt: new Date().toISOString(),
          host: hostname(),
          ...(startTicks === undefined ? {} : { startTicks }),
        })
      },
      ended: (pgid) => groups.delete(pgid),
      unfinished: async () => [...groups.values()],
      clear: async () => groups.clear(),
    }
  }

  async create(sessionId: string, lock: SessionLock): Promise<MemorySessionLog> {
    if (this.#sessions.has(sessionId)) throw new KernelError(`session ${sessionId} already exists`)
    this.#sessions.set(sessionId, { events: [], archived: false, ledger: new Map() })
    return this.#open(sessionId, 0, lock)
  }

  async load(sessionId: string): Promise<LoadedSession> {
    return { events: [...this.#session(sessionId).events], droppedTail: undefined }
  }

  async reopen(sessionId: string, lastSeq: number, lock: SessionLock): Promise<MemorySessionLog> {
    this.#session(sessionId)
    return this.#open(sessionId, lastSeq, lock)
  }

  async list(): Promise<SessionSummary[]> {
    return [...this.#sessions.keys()].map((id) => this.#summarize(id))
  }

  async summary(sessionId: string): Promise<SessionSummary> {
    return this.#summarize(sessionId)
  }

  async setName(sessionId: string, name: string | undefined): Promise<void> {
    this.#session(sessionId).name = name
  }

  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    this.#session(sessionId).archived = archived
  }

  async fork(sessionId: string, forkId: string, { throughTurnId }: ForkOptions = {}): Promise<void> {
    const { events } = this.#session(sessionId)
    const start = events.find((event) => event.type === 'session/start')
    if (start?.type !== 'session/start') throw new KernelError(`session ${sessionId} has no session/start event to fork from`)
    let copied = events
    if (throughTurnId !== undefined) {
      const end = events.findIndex((event) => event.type === 'turn/end' && event.turnId === throughTurnId)
      if (end < 0) throw new KernelError(`turn ${throughTurnId} of session ${sessionId} has not ended, or does not exist`)
      copied = events.slice(0, end + 1)
    }
    if (this.#sessions.has(forkId)) throw new KernelError(`session ${forkId} already exists`)
    const at = new Date().toISOString()
    const forkedFrom = { sessionId, ...(throughTurnId === undefined ? {} : { turnId: throughTurnId }) }
    const forked: SessionEvent[] = [
      { v: 1, seq: 1, at, type: 'session/start', sessionId: forkId, cwd: start.cwd, createdAt: at, forkedFrom },
    ]
    for (const event of copied) if (!NOT_FORKED.has(event.type)) forked.push({ ...event, seq: forked.length + 1 })
    this.#sessions.set(forkId, { events: forked, archived: false, ledger: new Map() })
  }

  #open(sessionId: string, lastSeq: number, lock: SessionLock): MemorySessionLog {
    const epoch = lock.epoch ?? 0
    const log = new MemorySessionLog(
      {
        path: this.pathFor(sessionId),
        events: this.#session(sessionId).events,
        fenced: () => {
          const current = this.#epochs.get(sessionId) ?? 0
          return current === epoch ? undefined : `session ${sessionId} was taken over by another process (epoch ${current})`
        },
        syncing: async () => this.#heldSyncs?.wait(),
      },
      lastSeq,
    )
    const open = this.#logs.get(sessionId) ?? new Set()
    open.add({ log, epoch })
    this.#logs.set(sessionId, open)
    return log
  }

  #session(sessionId: string): StoredSession {
    const session = this.#sessions.get(sessionId)
    if (session === undefined) throw new KernelError(`no session ${sessionId}: it does not exist`)
    return session
  }

  #summarize(sessionId: string): SessionSummary {
    const { events, name, archived } = this.#session(sessionId)
    const summary: SessionSummary = {
      ...{ id: sessionId, path: this.pathFor(sessionId), cwd: undefined, createdAt: undefined, updatedAt: undefined },
      ...{ turns: 0, ended: false, firstPrompt: undefined, name, archived, forkedFrom: undefined, parent: undefined },
    }
    for (const event of events) {
      summary.updatedAt = event.at
      if (event.type === 'session/start') {
        summary.cwd = event.cwd
        summary.createdAt = event.createdAt
        summary.forkedFrom = event.forkedFrom?.sessionId
        const parent = event.parent
        if (parent) summary.parent = { sessionId: parent.sessionId, agentId: parent.agentId, agentType: parent.agentType }
      } else if (event.type === 'turn/start') summary.turns++
      else if (event.type === 'session/end') summary.ended = true
      else if (event.type === 'message' && event.message.role === 'user' && summary.firstPrompt === undefined) {
        const text = event.message.content.find((part) => part.type === 'text')
        if (text?.type === 'text') summary.firstPrompt = text.text
      }
    }
    return summary
  }
}
