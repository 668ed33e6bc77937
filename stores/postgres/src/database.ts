import { KernelError } from '@harness-kernel/kernel'
import type { Client, Pool, PoolClient, PoolConfig, QueryResult, QueryResultRow } from 'pg'
import { describeDatabaseUrl, passwordOf } from './database-url.js'
import { errorText } from './error-text.js'
import { redact } from './redaction.js'
import { ensureSchema } from './schema.js'
import type { Tables } from './sql-names.js'
import { isTransientError } from './transient-errors.js'

/** How long a new connection may take before the attempt counts as failed (a store's own pool). */
const CONNECT_TIMEOUT_MS = 5000

/**
 * The store's way to PostgreSQL: `pg` is loaded and the pool made on first use (a kernel that never opens a session
 * does not pay for either), and the schema is checked once. Failures to connect become `KernelError`s naming the
 * database without its password; every message is stripped of the password.
 */
export class Database {
  /** `postgres://user@host:port/database`, never with the password. */
  readonly address: string
  readonly tables: Tables
  readonly #connection: string | PoolConfig
  readonly #password: string | undefined
  readonly #ownsPool: boolean
  readonly #leaseMs: number
  #pool: Pool | undefined
  #ready: Promise<Pool> | undefined

  constructor(connection: string | PoolConfig, tables: Tables, options: { pool?: Pool | undefined; leaseMs: number }) {
    const { pool, leaseMs } = options
    this.#leaseMs = leaseMs
    this.address = describeDatabaseUrl(connection)
    this.tables = tables
    this.#connection = connection
    this.#password = passwordOf(connection)
    this.#pool = pool
    this.#ownsPool = pool === undefined
  }

  /** The pool, once the database answered and the schema is in place. A failed first use is retried by the next. */
  ready(): Promise<Pool> {
    this.#ready ??= this.#open().catch((error: unknown) => {
      this.#ready = undefined
      throw error
    })
    return this.#ready
  }

  async query<Row extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<Row>> {
    const pool = await this.ready()
    try {
      return await pool.query<Row>(text, values)
    } catch (error) {
      throw this.failure(error)
    }
  }

  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const pool = await this.ready()
    let client: PoolClient
    try {
      client = await checkOut(pool)
    } catch (error) {
      throw this.failure(error)
    }
    let broken: unknown
    try {
      await client.query('BEGIN')
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      broken = error
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError
      })
      throw this.failure(error)
    } finally {
      // A connection that failed is not given back to the pool for the next transaction.
      client.release(broken !== undefined && isTransientError(broken) ? (broken as Error) : undefined)
    }
  }

  /**
   * The error to throw for what `pg` threw: a failure to reach the server is a `KernelError` naming the database
   * (its `cause` is the original, so `isTransientError` still sees it); the rest is kept, password cut out.
   */
  failure(error: unknown): Error {
    if (error instanceof KernelError) return error
    if (isTransientError(error)) return this.unreachable(error)
    if (error instanceof Error) {
      error.message = this.redact(error.message)
      return error
    }
    return new Error(this.redact(String(error)))
  }

  unreachable(cause: unknown): KernelError {
    return new KernelError(`cannot reach PostgreSQL at ${this.address} (no password): ${this.redact(errorText(cause))}`, { cause })
  }

  /** What went wrong, for a message of the store's own: `pg`'s or the server's words (not a wrapping), password cut out. */
  reason(error: unknown): string {
    const inner = error instanceof KernelError && error.cause instanceof Error ? error.cause : error
    return this.redact(errorText(inner))
  }

  redact(text: string): string {
    return redact(text, this.#password)
  }

  /**
   * A connection of its own, outside the pool, to the database the pool reaches and as the pool connects (a `LISTEN`
   * must stay on one connection). Not connected yet; the schema is in place. The caller listens for `error` and ends it.
   */
  async dedicatedClient(): Promise<Client> {
    const pool = await this.ready()
    const { default: pg } = await import('pg')
    return new pg.Client({ keepAlive: true, ...pool.options })
  }

  /** Closes the pool if the store made it. */
  async end(): Promise<void> {
    const pool = this.#pool
    this.#ready = undefined
    if (pool === undefined || !this.#ownsPool) return
    this.#pool = undefined
    await pool.end()
  }

  async #open(): Promise<Pool> {
    const pool = this.#pool ?? (await this.#createPool())
    this.#pool = pool
    let client: PoolClient
    try {
      client = await checkOut(pool)
    } catch (error) {
      // At first use any failure to connect (refused, unknown host, bad password, no such database) means the same.
      throw this.unreachable(error)
    }
    try {
      await ensureSchema(client, this.tables)
    } catch (error) {
      client.release(error as Error)
      if (isTransientError(error)) throw this.unreachable(error)
      if (error instanceof KernelError) throw error
      throw new KernelError(
        `could not set up schema ${this.tables.schema} in PostgreSQL at ${this.address} (no password): ${this.redact(errorText(error))}`,
        { cause: error },
      )
    }
    client.release()
    return pool
  }

  async #createPool(): Promise<Pool> {
    // Loaded here, not at import: a kernel's start-up time is measured, and most runs never touch the database.
    const { default: pg } = await import('pg')
    const base: PoolConfig = typeof this.#connection === 'string' ? { connectionString: this.#connection } : this.#connection
    const pool = new pg.Pool({
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      allowExitOnIdle: true,
      // A holder stalled inside a write (stopped, frozen) keeps the thread's row locked: the server ends its transaction
      // before its lease runs out, so a take-over is never held up for longer than the lease (found by the chaos test).
      idle_in_transaction_session_timeout: Math.max(1, Math.floor(this.#leaseMs / 2)),
      // …and a statement waits for a row lock at most a lease's time, then fails and is tried again, never forever.
      lock_timeout: Math.max(1, this.#leaseMs),
      ...base,
    })
    // An idle connection that dies (a server restart) is reported here; without a listener it would crash the process.
    // The next query on the pool opens a new connection.
    pool.on('error', () => {})
    return pool
  }
}

/**
 * A connection of the pool's, with an `error` listener while it is checked out: a connection that dies then (a server
 * restart) fails its query, and `pg` also emits `error`, which would crash the process unheard. The listener goes when
 * the connection is released.
 */
async function checkOut(pool: Pool): Promise<PoolClient> {
  const client = await pool.connect()
  const ignore = () => {}
  client.on('error', ignore)
  const release = client.release.bind(client)
  client.release = (error?: Error | boolean) => {
    client.off('error', ignore)
    release(error)
  }
  return client
}
