import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import {
  type Clock,
  type ForkOptions,
  KernelError,
  type LoadedSession,
  type ProcessLedger,
  SESSION_STORE_SPEC,
  type SessionLock,
  type SessionLog,
  type SessionStore,
  type SessionSummary,
} from '@harness-kernel/kernel'
import type { PoolConfig } from 'pg'
import { Database } from './database.js'
import type { PostgresFleetOptions } from './fleet/fleet-options.js'
import { PostgresFleet } from './fleet/postgres-fleet.js'
import { forkedEvents } from './fork-events.js'
import { PostgresSessionLock } from './lease-lock.js'
import { PostgresProcessLedger } from './postgres-process-ledger.js'
import { PostgresSessionLog } from './postgres-session-log.js'
import { assertSessionId } from './session-id.js'
import { tablesIn } from './sql-names.js'
import { DEFAULT_LEASE_MS, DEFAULT_SCHEMA, type PostgresStoreOptions } from './store-options.js'
import { takeLease } from './take-lease.js'
import {
  insertThreadLog,
  markLogCreated,
  noSession,
  readEvents,
  readSummaryRow,
  readSummaryRows,
  sessionExists,
  setThreadColumn,
} from './thread-statements.js'
import { applyEvents, EMPTY_SUMMARY, stateOfRow, summaryOfRow } from './thread-summary.js'
import { WriteBehind } from './write-behind.js'

/**
 * A `sessionStore` in PostgreSQL: each session a thread (a `threads` row and its `events`), written by one process
 * at a time under a lease with an epoch that fences out a holder whose lease was taken over.
 */
export function postgresStore(connection: string | PoolConfig, options: PostgresStoreOptions = {}): PostgresSessionStore {
  return new PostgresSessionStore(connection, options)
}

export class PostgresSessionStore implements SessionStore {
  readonly specificationVersion = SESSION_STORE_SPEC
  /** The database, as `postgres://user@host:port/database` (never with the password). */
  readonly address: string
  readonly schema: string
  readonly leaseMs: number
  /** This store's id in the leases it holds (`holder->>'instance'`). */
  readonly instance = randomUUID()
  readonly #db: Database
  readonly #clock: Clock
  readonly #localDir: string
  /** Per session, the process ledgers' writes to the table, in order across the ledgers made for it. */
  readonly #ledgerWrites = new Map<string, WriteBehind>()
  readonly #fleets = new Set<PostgresFleet>()

  constructor(connection: string | PoolConfig, options: PostgresStoreOptions = {}) {
    this.schema = options.schema ?? DEFAULT_SCHEMA
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
    if (!Number.isFinite(this.leaseMs) || this.leaseMs < 3)
      throw new KernelError(`postgresStore: leaseMs must be a number of milliseconds ≥ 3, got ${options.leaseMs}`)
    this.#db = new Database(connection, tablesIn(this.schema), { pool: options.pool, leaseMs: this.leaseMs })
    this.address = this.#db.address
    this.#clock = options.clock ?? { now: () => Date.now() }
    this.#localDir = options.localDir ?? join(homedir(), '.harness', 'postgres-ledger', this.schema)
  }

  /**
   * The thread's address: `postgres://user@host:port/database#<schema>.thread=<id>`. It is what summaries give as the
   * session's `path`, and what hooks get as `transcript_path`: not a file.
   */
  /**
   * Connects and sets up the schema now rather than at first use, so a program can refuse to start on a database it
   * cannot reach: a `KernelError` naming the address (never the password) and the cause.
   */
  async connect(): Promise<void> {
    await this.#db.ready()
  }

  pathFor(sessionId: string): string {
    assertSessionId(sessionId)
    return `${this.address}#${this.schema}.thread=${sessionId}`
  }

  async lock(sessionId: string): Promise<PostgresSessionLock> {
    const path = this.pathFor(sessionId)
    return takeLease({ db: this.#db, sessionId, path, instance: this.instance, leaseMs: this.leaseMs })
  }

  processLedger(sessionId: string): ProcessLedger {
    assertSessionId(sessionId)
    mkdirSync(this.#localDir, { recursive: true })
    let writes = this.#ledgerWrites.get(sessionId)
    if (writes === undefined) {
      writes = new WriteBehind(() => this.#ledgerWrites.delete(sessionId))
      this.#ledgerWrites.set(sessionId, writes)
    }
    return new PostgresProcessLedger(this.#db, sessionId, join(this.#localDir, `${sessionId}.processes`), writes)
  }

  async create(sessionId: string, lock: SessionLock): Promise<SessionLog> {
    const path = this.pathFor(sessionId)
    const lease = this.#ownLease(sessionId, lock)
    const created = await markLogCreated(this.#db, { sessionId, epoch: lease.epoch, instance: lease.instance })
    if (created === 'exists') throw sessionExists(sessionId, path)
    if (created === 'fenced') {
      const error = await lease.explainLoss()
      lease.lose(error)
      throw error
    }
    return new PostgresSessionLog({ db: this.#db, sessionId, path, lock: lease, clock: this.#clock, lastSeq: 0, summary: EMPTY_SUMMARY })
  }

  async load(sessionId: string): Promise<LoadedSession> {
    const path = this.pathFor(sessionId)
    const events = await readEvents(this.#db, this.#db.tables, sessionId)
    // A created log without events exists; a row that only a lock made does not.
    if (events.length === 0 && (await readSummaryRow(this.#db, sessionId)) === undefined) throw noSession(sessionId, path)
    return { events, droppedTail: undefined }
  }

  async reopen(sessionId: string, lastSeq: number, lock: SessionLock): Promise<SessionLog> {
    const path = this.pathFor(sessionId)
    const lease = this.#ownLease(sessionId, lock)
    const row = await readSummaryRow(this.#db, sessionId)
    if (row === undefined) throw noSession(sessionId, path)
    if (Number(row.last_seq) !== lastSeq)
      throw new KernelError(`session ${sessionId} ends at seq ${row.last_seq}, not ${lastSeq}: load it again before reopening it`)
    return new PostgresSessionLog({ db: this.#db, sessionId, path, lock: lease, clock: this.#clock, lastSeq, summary: stateOfRow(row) })
  }

  async list(): Promise<SessionSummary[]> {
    const rows = await readSummaryRows(this.#db)
    const summaries = rows.map((row) => summaryOfRow(row, this.pathFor(row.id)))
    return summaries.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''))
  }

  async summary(sessionId: string): Promise<SessionSummary> {
    const path = this.pathFor(sessionId)
    const row = await readSummaryRow(this.#db, sessionId)
    if (row === undefined) throw noSession(sessionId, path)
    return summaryOfRow(row, path)
  }

  async setName(sessionId: string, name: string | undefined): Promise<void> {
    const path = this.pathFor(sessionId)
    if (!(await setThreadColumn(this.#db, sessionId, 'name', name ?? null))) throw noSession(sessionId, path)
  }

  async setArchived(sessionId: string, archived: boolean): Promise<void> {
    const path = this.pathFor(sessionId)
    if (!(await setThreadColumn(this.#db, sessionId, 'archived', archived))) throw noSession(sessionId, path)
  }

  /** Reads the source and writes the fork in one transaction: the fork is the source as it was at one instant. */
  async fork(sessionId: string, forkId: string, options: ForkOptions = {}): Promise<void> {
    const sourcePath = this.pathFor(sessionId)
    const forkPath = this.pathFor(forkId)
    const at = new Date(this.#clock.now()).toISOString()
    await this.#db.transaction(async (client) => {
      const events = await readEvents(client, this.#db.tables, sessionId)
      if (events.length === 0) throw noSession(sessionId, sourcePath)
      const lines = forkedEvents(events, sessionId, forkId, options.throughTurnId, at)
      if (!(await insertThreadLog(client, this.#db.tables, forkId, lines, applyEvents(EMPTY_SUMMARY, lines))))
        throw sessionExists(forkId, forkPath)
    })
  }

  /**
   * The store's side of a fleet of processes sharing the database (the App Server's `FleetPort`): the steering inbox,
   * claims under this store's leases, followers of threads' logs, and relayed server requests (a front-end gone for
   * longer than `leaseMs` leaves them unanswered). Each call gives a new fleet object (its own listening connections);
   * `close` of the store closes them all.
   */
  fleet(options: PostgresFleetOptions = {}): PostgresFleet {
    const fleet = new PostgresFleet(this.#db, { schema: this.schema, instance: this.instance, leaseMs: this.leaseMs }, options)
    this.#fleets.add(fleet)
    return fleet
  }

  /** Closes the store's own connections (a pool given in the options is left open) and its fleets. Locks still held run out. */
  async close(): Promise<void> {
    await Promise.all([...this.#fleets].map((fleet) => fleet.close()))
    this.#fleets.clear()
    await this.#db.end()
  }

  /** The lease behind `lock`: this store's, for this session, still held. */
  #ownLease(sessionId: string, lock: SessionLock): PostgresSessionLock {
    if (!(lock instanceof PostgresSessionLock) || lock.instance !== this.instance)
      throw new KernelError(`session ${sessionId}: its log must be opened under a lock this store took (sessionStore.lock)`)
    if (lock.sessionId !== sessionId) throw new KernelError(`session ${sessionId}: the lock given is session ${lock.sessionId}'s`)
    if (lock.lostError !== undefined) throw lock.lostError
    if (lock.released) throw new KernelError(`session ${sessionId}: the lock given was released`)
    return lock
  }
}
