import { KernelError } from '@harness-kernel/kernel'
import type { Database } from '../database.js'
import { decodeJsonb, encodeJsonb } from '../event-encoding.js'
import type { Tables } from '../sql-names.js'
import type { Queryable } from '../thread-statements.js'
import type { InboxItem, InboxKind, InboxState } from './inbox-item.js'

/**
 * Rows a thread's owner has yet to act on: pending ones, and ones claimed under an epoch older than the thread's (the
 * claimant lost the thread). `item.state IN (…)` first, so the partial index `inbox_open` serves it.
 */
const OPEN_ROW = `item.state IN ('pending', 'claimed') AND (item.state = 'pending' OR item.claimed_epoch IS NULL OR item.claimed_epoch < t.epoch)`

/**
 * Records the item once (the id is the key: a retry finds the row) and notifies the schema's channel with the thread's
 * id, in one transaction: the notification goes out at the commit, so whoever it wakes finds the row.
 */
export async function acceptItem(db: Database, channel: string, item: InboxItem): Promise<{ state: InboxState; duplicate: boolean }> {
  const { threads, inbox } = db.tables
  return db.transaction(async (client) => {
    const inserted = await client.query(
      `INSERT INTO ${inbox} (id, thread_id, kind, payload, accepted_by)
       SELECT $1, $2, $3, $4::jsonb, $5 WHERE EXISTS (SELECT 1 FROM ${threads} WHERE id = $2 AND log_created_at IS NOT NULL)
       ON CONFLICT (id) DO NOTHING`,
      [item.id, item.threadId, item.kind, encodeJsonb(item.payload), item.acceptedBy],
    )
    if (inserted.rowCount === 1) {
      await client.query('SELECT pg_notify($1, $2)', [channel, item.threadId])
      return { state: 'pending', duplicate: false }
    }
    const found = await client.query<{ thread_id: string; state: InboxState }>(`SELECT thread_id, state FROM ${inbox} WHERE id = $1`, [
      item.id,
    ])
    const row = found.rows[0]
    if (row === undefined) throw new KernelError(`no thread ${item.threadId}`)
    if (row.thread_id !== item.threadId)
      throw new KernelError(`inbox item ${item.id} was accepted for thread ${row.thread_id}, not thread ${item.threadId}`)
    return { state: row.state, duplicate: true }
  })
}

/**
 * Claims the thread's open rows under the lease `instance` holds on it, in one statement: the thread row is read
 * `FOR SHARE` and must show this instance's live lease, so a take-over waits for the claim or the claim finds nothing.
 * Oldest first.
 */
export async function claimItems(db: Database, threadId: string, instance: string): Promise<InboxItem[]> {
  const { threads, inbox } = db.tables
  const result = await db.query<{ n: string; id: string; kind: InboxKind; payload: unknown; accepted_by: string | null }>(
    `WITH t AS (SELECT epoch FROM ${threads} WHERE id = $1 AND holder->>'instance' = $2 AND lease_until > now() FOR SHARE)
     UPDATE ${inbox} AS item SET state = 'claimed', claimed_epoch = t.epoch, claimed_by = $2
     FROM t WHERE item.thread_id = $1 AND ${OPEN_ROW}
     RETURNING item.n, item.id, item.kind, item.payload, item.accepted_by`,
    [threadId, instance],
  )
  return result.rows
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((row) => ({
      id: row.id,
      threadId,
      kind: row.kind,
      payload: decodeJsonb(row.payload) as InboxItem['payload'],
      acceptedBy: row.accepted_by ?? '',
    }))
}

/**
 * Puts rows this instance claimed back to pending. Only under the epoch the thread is still at: a row whose thread
 * has been taken over since is the new holder's to claim, and is left alone.
 */
export async function releaseItems(db: Database, ids: readonly string[], instance: string): Promise<void> {
  const { threads, inbox } = db.tables
  await db.query(
    `UPDATE ${inbox} AS item SET state = 'pending', claimed_epoch = NULL, claimed_by = NULL FROM ${threads} AS t
     WHERE item.id = ANY($1::text[]) AND item.state = 'claimed' AND item.claimed_by = $2
       AND t.id = item.thread_id AND t.epoch = item.claimed_epoch`,
    [ids, instance],
  )
}

/** Settles open rows; a row settled before keeps its state (the first settlement wins, as in the log). */
export async function settleItems(db: Database, ids: readonly string[], state: 'recorded' | 'dropped'): Promise<void> {
  await db.query(
    `UPDATE ${db.tables.inbox} SET state = $2, settled_at = now() WHERE id = ANY($1::text[]) AND state IN ('pending', 'claimed')`,
    [ids, state],
  )
}

export async function itemState(db: Database, id: string): Promise<InboxState | undefined> {
  const result = await db.query<{ state: InboxState }>(`SELECT state FROM ${db.tables.inbox} WHERE id = $1`, [id])
  return result.rows[0]?.state
}

/** Threads with open rows, whoever holds them: the threads a poll wakes. */
export async function threadsWithOpenRows(db: Queryable, tables: Tables): Promise<string[]> {
  const result = await db.query<{ thread_id: string }>(
    `SELECT DISTINCT item.thread_id FROM ${tables.inbox} AS item JOIN ${tables.threads} AS t ON t.id = item.thread_id WHERE ${OPEN_ROW}`,
  )
  return result.rows.map((row) => row.thread_id)
}

/**
 * Threads with pending or claimed rows and no live lease. Every claimed row of such a thread is stale, whatever its
 * epoch: its claimant no longer holds the thread.
 */
export async function orphanThreads(db: Database): Promise<string[]> {
  const { threads, inbox } = db.tables
  const result = await db.query<{ thread_id: string }>(
    `SELECT DISTINCT item.thread_id FROM ${inbox} AS item JOIN ${threads} AS t ON t.id = item.thread_id
     WHERE item.state IN ('pending', 'claimed') AND (t.holder IS NULL OR t.lease_until IS NULL OR t.lease_until <= now())
     ORDER BY item.thread_id`,
  )
  return result.rows.map((row) => row.thread_id)
}
