import { KernelError } from '@harness-kernel/kernel'
import type { Database } from '../database.js'
import { decodeJsonb, encodeJsonb } from '../event-encoding.js'
import type { Tables } from '../sql-names.js'
import type { Queryable } from '../thread-statements.js'
import { noteText } from './ask-notes.js'
import type { AskState, RelayedAnswer, RelayedEnd, RelayedRequest } from './relayed-request.js'

export type Answer = Exclude<RelayedAnswer, { unanswered: string }>

/** A row as the owner's waits read it: its state, and the answer once there is one. */
export interface AskRow {
  id: string
  state: AskState
  answer: Answer | undefined
}

/**
 * Records the request (`pending`, asked by `askedBy`) and notifies its front-end, in one transaction: the notification
 * goes out at the commit, so the front-end finds the row. Refuses a thread without a row, and an id asked before.
 */
export async function insertAsk(db: Database, channel: string, request: RelayedRequest, askedBy: string): Promise<void> {
  const { threads, asks } = db.tables
  await db.transaction(async (client) => {
    const inserted = await client.query(
      `INSERT INTO ${asks} (id, thread_id, turn_id, kind, method, params, asked_by, to_instance, to_connection)
       SELECT $1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM ${threads} WHERE id = $2)
       ON CONFLICT (id) DO NOTHING`,
      [
        request.id,
        request.threadId,
        request.turnId,
        request.kind,
        request.method,
        encodeJsonb(request.params ?? null),
        askedBy,
        request.to.instance,
        request.to.connection,
      ],
    )
    if (inserted.rowCount !== 1) {
      const found = await client.query(`SELECT 1 FROM ${asks} WHERE id = $1`, [request.id])
      throw new KernelError(found.rowCount === 0 ? `no thread ${request.threadId}` : `relayed request ${request.id} was asked before`)
    }
    await client.query('SELECT pg_notify($1, $2)', [channel, noteText({ to: request.to.instance, id: request.id, event: 'asked' })])
  })
}

/**
 * The first answer wins: a row still `pending` or `sent` becomes `answered`, and its owner is notified. False when it
 * was answered or ended before (or there is no such row).
 */
export async function answerAsk(db: Database, channel: string, id: string, answer: Answer): Promise<boolean> {
  return db.transaction(async (client) => {
    const updated = await client.query<{ asked_by: string }>(
      `UPDATE ${db.tables.asks} SET state = 'answered', answer = $2::jsonb WHERE id = $1 AND state IN ('pending', 'sent') RETURNING asked_by`,
      [id, encodeJsonb(answer)],
    )
    const row = updated.rows[0]
    if (row === undefined) return false
    await client.query('SELECT pg_notify($1, $2)', [channel, noteText({ to: row.asked_by, id, event: 'answered' })])
    return true
  })
}

/**
 * Ends the row as `end` if it is in one of `from`, and notifies its front-end; false when it was not (an end is
 * final: a row never leaves `expired` or `resolved`).
 */
export async function endAskRow(db: Database, channel: string, id: string, end: RelayedEnd, from: readonly AskState[]): Promise<boolean> {
  return db.transaction(async (client) => {
    const updated = await client.query<{ to_instance: string }>(
      `UPDATE ${db.tables.asks} SET state = $2, ended_at = now() WHERE id = $1 AND state = ANY($3::text[]) RETURNING to_instance`,
      [id, end, from],
    )
    const row = updated.rows[0]
    if (row === undefined) return false
    await client.query('SELECT pg_notify($1, $2)', [channel, noteText({ to: row.to_instance, id, event: end })])
    return true
  })
}

/**
 * Marks `sent` the instance's `pending` rows and returns them, oldest first. One statement: a row is returned to one
 * caller only (a concurrent one waits for the row's lock, then finds it `sent`), so each is delivered once.
 */
export async function sendPending(db: Queryable, tables: Tables, instance: string): Promise<RelayedRequest[]> {
  const result = await db.query<{
    id: string
    thread_id: string
    turn_id: string
    kind: RelayedRequest['kind']
    method: string
    params: unknown
    to_connection: string
  }>(
    `WITH sent AS (
       UPDATE ${tables.asks} SET state = 'sent' WHERE to_instance = $1 AND state = 'pending'
       RETURNING id, thread_id, turn_id, kind, method, params, to_connection, asked_at
     )
     SELECT * FROM sent ORDER BY asked_at, id`,
    [instance],
  )
  return result.rows.map((row) => ({
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    kind: row.kind,
    method: row.method,
    params: decodeJsonb(row.params),
    to: { instance, connection: row.to_connection },
  }))
}

/** Rows a watch that closed took but did not deliver go back to `pending`, for the next watch of the instance. */
export async function unsend(db: Database, ids: readonly string[]): Promise<void> {
  await db.query(`UPDATE ${db.tables.asks} SET state = 'pending' WHERE id = ANY($1::text[]) AND state = 'sent'`, [ids])
}

/** The rows of these ids (those that exist). */
export async function readAsks(db: Queryable, tables: Tables, ids: readonly string[]): Promise<AskRow[]> {
  const result = await db.query<{ id: string; state: AskState; answer: unknown }>(
    `SELECT id, state, answer FROM ${tables.asks} WHERE id = ANY($1::text[])`,
    [ids],
  )
  return result.rows.map((row) => ({
    id: row.id,
    state: row.state,
    answer: row.answer === null ? undefined : (decodeJsonb(row.answer) as Answer),
  }))
}
