import { KernelError } from '@harness-kernel/kernel'
import { decodeEvent } from '../event-encoding.js'
import type { Tables } from '../sql-names.js'
import type { Queryable } from '../thread-statements.js'

/**
 * The turn a thread's log has open: its last `turn/start`, unless a `turn/end` of that turn follows. Reads the log
 * backwards from its newest event on the primary key, to the last `turn/start` only, then that event and the turn
 * ends after it (decoded in JS: an event stored encoded keeps its `type` in the clear, not its `turnId`). A thread
 * without a log is `no thread <id>`, as `accept` says it.
 */
export async function readOpenTurn(db: Queryable, tables: Tables, threadId: string): Promise<string | undefined> {
  const result = await db.query<{ body: Record<string, unknown> }>(
    `WITH last_start AS (
       SELECT seq FROM ${tables.events} WHERE thread_id = $1 AND body->>'type' = 'turn/start' ORDER BY seq DESC LIMIT 1
     )
     SELECT e.body FROM ${tables.events} AS e, last_start
     WHERE e.thread_id = $1 AND e.seq >= last_start.seq AND e.body->>'type' IN ('turn/start', 'turn/end')
     ORDER BY e.seq`,
    [threadId],
  )
  if (result.rows.length === 0) {
    const found = await db.query(`SELECT 1 FROM ${tables.threads} WHERE id = $1 AND log_created_at IS NOT NULL`, [threadId])
    if (found.rows.length === 0) throw new KernelError(`no thread ${threadId}`)
    return undefined
  }
  let open: string | undefined
  for (const row of result.rows) {
    const event = decodeEvent(row.body)
    if (event.type === 'turn/start') open = event.turnId
    else if (event.type === 'turn/end' && event.turnId === open) open = undefined
  }
  return open
}
