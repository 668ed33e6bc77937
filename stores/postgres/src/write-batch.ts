import type { SessionEvent } from '@harness-kernel/kernel'
import type { Database } from './database.js'
import { inboxSettlements } from './inbox-settlements.js'
import { SUMMARY_COLUMNS, summaryValues, type ThreadSummaryState } from './thread-summary.js'

/** What a write must prove: the lease it holds, and where the log stood when the batch was made. */
export interface WriteFence {
  sessionId: string
  epoch: number
  instance: string
  /** The seq the thread's log ends at before the batch. */
  previousSeq: number
}

/** The summary columns, as SET assignments from parameter `$first` on. */
function summaryAssignments(first: number): string {
  return SUMMARY_COLUMNS.map((column, index) => `${column} = $${first + index}${column === 'parent' ? '::jsonb' : ''}`).join(', ')
}

/**
 * Writes one batch in one transaction: the thread row first, fenced (this lease's epoch and instance, a lease that has
 * not run out, the log where this writer left it), then the events, then the inbox rows the batch settles. Returns
 * false, writing nothing, when the fence does not hold.
 */
export async function writeBatch(
  db: Database,
  fence: WriteFence,
  events: readonly SessionEvent[],
  encodedEvents: string,
  summary: ThreadSummaryState,
): Promise<boolean> {
  const { threads, events: eventsTable, inbox } = db.tables
  const lastSeq = events.at(-1)?.seq ?? fence.previousSeq
  return db.transaction(async (client) => {
    const fenced = await client.query(
      `UPDATE ${threads} SET last_seq = $5, ${summaryAssignments(6)}
       WHERE id = $1 AND epoch = $2 AND holder->>'instance' = $3 AND last_seq = $4 AND lease_until > now()`,
      [fence.sessionId, fence.epoch, fence.instance, fence.previousSeq, lastSeq, ...summaryValues(summary)],
    )
    if (fenced.rowCount !== 1) return false
    await client.query(
      `INSERT INTO ${eventsTable} (thread_id, seq, epoch, body)
       SELECT $1, (body->>'seq')::bigint, $2, body FROM jsonb_array_elements($3::jsonb) AS body`,
      [fence.sessionId, fence.epoch, encodedEvents],
    )
    const settled = inboxSettlements(events)
    if (settled.ids.length > 0) {
      await client.query(
        `UPDATE ${inbox} AS item SET state = settled.state, settled_at = now(), settled_seq = settled.seq
         FROM unnest($2::text[], $3::text[], $4::bigint[]) AS settled (id, state, seq)
         WHERE item.id = settled.id AND item.thread_id = $1 AND item.state IN ('pending', 'claimed')`,
        [fence.sessionId, settled.ids, settled.states, settled.seqs],
      )
    }
    return true
  })
}
