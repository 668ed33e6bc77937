import { hostname } from 'node:os'
import { FileProcessLedger, type ProcessGroupRecord, type ProcessLedger, processGroupRecord } from '@harness-kernel/kernel'
import type { Database } from './database.js'
import type { WriteBehind } from './write-behind.js'

/**
 * A thread's process ledger: a local file (the kernel's `FileProcessLedger`), written synchronously, so the records of
 * a SIGKILLed kernel are there for the next one on this host; and the `processes` table, written behind in order, so
 * other hosts can see what ran here. `unfinished` gives this host's records from the file (the table's may lag behind
 * it) and other hosts' from the table (the kernel names those, and reaps only its own host's).
 */
export class PostgresProcessLedger implements ProcessLedger {
  readonly path: string
  readonly #file: FileProcessLedger
  readonly #db: Database
  readonly #sessionId: string
  readonly #host = hostname()
  /** The table's writes for this session, shared by its ledgers in this store; a failed one is given up. */
  readonly #behind: WriteBehind

  constructor(db: Database, sessionId: string, filePath: string, behind: WriteBehind) {
    this.#db = db
    this.#sessionId = sessionId
    this.#behind = behind
    this.#file = new FileProcessLedger(filePath)
    this.path = filePath
  }

  started(record: { pgid: number; command: string; startTicks?: number | undefined }): void {
    this.#file.started(record)
    const row = processGroupRecord(record)
    this.#writeBehind(
      (processes) =>
        `INSERT INTO ${processes} (thread_id, pgid, host, record) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (thread_id, host, pgid) DO UPDATE SET record = EXCLUDED.record`,
      [this.#sessionId, record.pgid, this.#host, JSON.stringify(row)],
    )
  }

  ended(pgid: number): void {
    this.#file.ended(pgid)
    this.#writeBehind(
      (processes) => `DELETE FROM ${processes} WHERE thread_id = $1 AND host = $2 AND pgid = $3`,
      [this.#sessionId, this.#host, pgid],
    )
  }

  /** This host's records (the file's), then other hosts' (the table's). */
  async unfinished(): Promise<ProcessGroupRecord[]> {
    const local = await this.#file.unfinished()
    const result = await this.#db.query<{ record: ProcessGroupRecord }>(
      `SELECT record FROM ${this.#db.tables.processes} WHERE thread_id = $1 AND host <> $2 ORDER BY host, pgid`,
      [this.#sessionId, this.#host],
    )
    return [...local, ...result.rows.map((row) => row.record)]
  }

  /** Forgets every record, this host's and others' (the kernel has reaped or named them). */
  async clear(): Promise<void> {
    await this.#behind.drained()
    await this.#file.clear()
    await this.#db.query(`DELETE FROM ${this.#db.tables.processes} WHERE thread_id = $1`, [this.#sessionId])
  }

  #writeBehind(sql: (processes: string) => string, values: unknown[]): void {
    this.#behind.push(() => this.#db.query(sql(this.#db.tables.processes), values))
  }
}
