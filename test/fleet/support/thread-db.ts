import { setTimeout as pause } from 'node:timers/promises'
import { waitUntil } from '@harness-kernel/testing'
import pg from 'pg'

export type RowState = 'pending' | 'claimed' | 'recorded' | 'dropped'

export interface Holder {
  pid: number
  epoch: number
  /** The lease has not run out by the database's clock. */
  live: boolean
}

/** What the test reads of one thread straight from the tables, through a pool that outlives a restart of the server. */
export class ThreadDb {
  readonly #pool: pg.Pool

  constructor(
    url: string,
    readonly schema: string,
  ) {
    this.#pool = new pg.Pool({ connectionString: url, max: 3, connectionTimeoutMillis: 5_000 })
    // An idle client dropped by a restart: the next query takes a new one.
    this.#pool.on('error', () => {})
  }

  /** A query, tried again for 30 s while the server cannot be reached (it is being restarted). */
  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    const deadline = Date.now() + 30_000
    for (;;) {
      try {
        return (await this.#pool.query(text, values)).rows as T[]
      } catch (error) {
        if (Date.now() > deadline) throw error
        await pause(100)
      }
    }
  }

  async holder(threadId: string): Promise<Holder | undefined> {
    const [row] = await this.query<{ pid: string | null; epoch: string; live: boolean | null }>(
      `SELECT holder->>'pid' AS pid, epoch, lease_until > now() AS live FROM "${this.schema}".threads WHERE id = $1`,
      [threadId],
    )
    if (!row || row.pid === null) return undefined
    return { pid: Number(row.pid), epoch: Number(row.epoch), live: row.live === true }
  }

  async rowStates(ids: readonly string[]): Promise<Map<string, RowState>> {
    const rows = await this.query<{ id: string; state: RowState }>(`SELECT id, state FROM "${this.schema}".inbox WHERE id = ANY($1)`, [ids])
    return new Map(rows.map((row) => [row.id, row.state]))
  }

  async openRows(threadId: string): Promise<number> {
    const [row] = await this.query<{ open: string }>(
      `SELECT count(*) AS open FROM "${this.schema}".inbox WHERE thread_id = $1 AND state IN ('pending', 'claimed')`,
      [threadId],
    )
    return Number(row?.open ?? 0)
  }

  /** The thread's lease epoch: how many times its lease was taken. */
  async epoch(threadId: string): Promise<number> {
    const [row] = await this.query<{ epoch: string }>(`SELECT epoch FROM "${this.schema}".threads WHERE id = $1`, [threadId])
    return Number(row?.epoch ?? 0)
  }

  async lastSeq(threadId: string): Promise<number> {
    const [row] = await this.query<{ last_seq: string }>(`SELECT last_seq FROM "${this.schema}".threads WHERE id = $1`, [threadId])
    return Number(row?.last_seq ?? 0)
  }

  /** `(seq, epoch)` of every event, in `seq` order. */
  async epochs(threadId: string): Promise<{ seq: number; epoch: number }[]> {
    const rows = await this.query<{ seq: string; epoch: string }>(
      `SELECT seq, epoch FROM "${this.schema}".events WHERE thread_id = $1 ORDER BY seq`,
      [threadId],
    )
    return rows.map((row) => ({ seq: Number(row.seq), epoch: Number(row.epoch) }))
  }

  /** The server's sessions, grouped by what they do (a failed take-over says who holds it up). */
  async activity(): Promise<string> {
    const rows = await this.query<{ state: string; wait: string | null; query: string; sessions: string }>(
      `SELECT state, wait_event_type AS wait, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query, count(*) AS sessions
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
       GROUP BY 1, 2, 3 ORDER BY 4 DESC`,
      [],
    )
    return rows.map((row) => `${row.sessions} × ${row.state} (waiting on ${row.wait ?? 'nothing'}): ${row.query}`).join('\n')
  }

  close(): Promise<void> {
    return this.#pool.end()
  }
}

/** The testing kit's `waitUntil`, bounded by `timeoutMs`. */
export function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs: number): Promise<T> {
  return waitUntil(probe, what, { boundMs: timeoutMs })
}
