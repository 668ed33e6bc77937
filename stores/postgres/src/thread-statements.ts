import { KernelError, type SessionEvent } from '@harness-kernel/kernel'
import type { PoolClient, QueryResult, QueryResultRow } from 'pg'
import type { Database } from './database.js'
import { decodeEvent, encodeEvent, jsonArray } from './event-encoding.js'
import type { Tables } from './sql-names.js'
import { SUMMARY_COLUMNS, SUMMARY_SELECT, summaryValues, type ThreadSummaryRow, type ThreadSummaryState } from './thread-summary.js'

/** What a missing session is called, as the JSONL store calls it (the address in place of the file path). */
export function noSession(sessionId: string, path: string): KernelError {
  return new KernelError(`no session ${sessionId}: ${path} does not exist`)
}

export function sessionExists(sessionId: string, path: string): KernelError {
  return new KernelError(`session ${sessionId} already exists at ${path}`)
}

/** The store's database, or one connection of it (in a transaction, or of its own). */
export interface Queryable {
  query<Row extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<Row>>
}

/** A thread's events in order. */
export async function readEvents(db: Queryable, tables: Tables, sessionId: string): Promise<SessionEvent[]> {
  const result = await db.query<{ body: Record<string, unknown> }>(`SELECT body FROM ${tables.events} WHERE thread_id = $1 ORDER BY seq`, [
    sessionId,
  ])
  return result.rows.map((row) => decodeEvent(row.body))
}

/** Up to `limit` of a thread's events after `afterSeq`, in order, with their seqs. */
export async function readEventsAfter(
  db: Queryable,
  tables: Tables,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<SessionEvent[]> {
  const result = await db.query<{ body: Record<string, unknown> }>(
    `SELECT body FROM ${tables.events} WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [sessionId, afterSeq, limit],
  )
  return result.rows.map((row) => decodeEvent(row.body))
}

/** The summary row of a thread whose log was created (`create` or `fork`), events or not. */
export async function readSummaryRow(db: Database, sessionId: string): Promise<(ThreadSummaryRow & { last_seq: string }) | undefined> {
  const result = await db.query<ThreadSummaryRow & { last_seq: string }>(
    `SELECT ${SUMMARY_SELECT}, last_seq FROM ${db.tables.threads} WHERE id = $1 AND log_created_at IS NOT NULL`,
    [sessionId],
  )
  return result.rows[0]
}

export async function readSummaryRows(db: Database): Promise<ThreadSummaryRow[]> {
  const result = await db.query<ThreadSummaryRow>(
    `SELECT ${SUMMARY_SELECT} FROM ${db.tables.threads} WHERE log_created_at IS NOT NULL ORDER BY id`,
  )
  return result.rows
}

/** Sets a column beside the log of a thread that has one; false if it has none. */
export async function setThreadColumn(db: Database, sessionId: string, column: 'name' | 'archived', value: unknown): Promise<boolean> {
  const result = await db.query(`UPDATE ${db.tables.threads} SET ${column} = $2 WHERE id = $1 AND log_created_at IS NOT NULL`, [
    sessionId,
    value,
  ])
  return result.rowCount === 1
}

/**
 * Writes a whole new log in the transaction of `client`: the thread's row (made, or a row only a lock made so far,
 * its lease kept) and its events at the row's epoch. False, writing nothing, if the thread has a log already.
 */
export async function insertThreadLog(
  client: PoolClient,
  tables: Tables,
  sessionId: string,
  events: readonly SessionEvent[],
  summary: ThreadSummaryState,
): Promise<boolean> {
  const columns = SUMMARY_COLUMNS.join(', ')
  const placeholders = SUMMARY_COLUMNS.map((column, index) => `$${index + 3}${column === 'parent' ? '::jsonb' : ''}`).join(', ')
  const updates = SUMMARY_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')
  const inserted = await client.query<{ epoch: string }>(
    `INSERT INTO ${tables.threads} AS t (id, log_created_at, last_seq, ${columns}) VALUES ($1, now(), $2, ${placeholders})
     ON CONFLICT (id) DO UPDATE SET log_created_at = now(), last_seq = EXCLUDED.last_seq, ${updates} WHERE t.log_created_at IS NULL
     RETURNING epoch`,
    [sessionId, events.at(-1)?.seq ?? 0, ...summaryValues(summary)],
  )
  const row = inserted.rows[0]
  if (row === undefined) return false
  await client.query(
    `INSERT INTO ${tables.events} (thread_id, seq, epoch, body)
     SELECT $1, (body->>'seq')::bigint, $2, body FROM jsonb_array_elements($3::jsonb) AS body`,
    [sessionId, row.epoch, jsonArray(events.map(encodeEvent))],
  )
  return true
}

/**
 * Marks the thread's log created, under the lease `fence` names (this instance's, at its epoch, not run out). `exists`
 * if it was created before; `fenced` if the lease is not (or no longer) this one.
 */
export async function markLogCreated(
  db: Database,
  fence: { sessionId: string; epoch: number; instance: string },
): Promise<'created' | 'exists' | 'fenced'> {
  const result = await db.query<{ existed: boolean }>(
    `UPDATE ${db.tables.threads} AS t SET log_created_at = COALESCE(old.log_created_at, now())
     FROM (SELECT id, log_created_at FROM ${db.tables.threads} WHERE id = $1 FOR UPDATE) AS old
     WHERE t.id = old.id AND t.epoch = $2 AND t.holder->>'instance' = $3 AND t.lease_until > now()
     RETURNING old.log_created_at IS NOT NULL AS existed`,
    [fence.sessionId, fence.epoch, fence.instance],
  )
  const row = result.rows[0]
  if (row === undefined) return 'fenced'
  return row.existed ? 'exists' : 'created'
}
