import type { Client } from 'pg'
import type { Queryable } from '../thread-statements.js'

/**
 * The text whose `hashtextextended` is the advisory lock key of an instance's presence: held, session-level, by the
 * connection that listens for the requests relayed to it. A process that dies (even by SIGKILL) loses its connection
 * and so the lock: presence needs no heartbeat, and no `pg_stat_activity` (which may hide other roles' sessions).
 */
export function presenceKey(schema: string, instance: string): string {
  return `@harness-kernel/store-postgres:${schema}:instance:${instance}`
}

/** Takes the presence lock on the listener's connection; false when another session holds it. */
export async function takePresence(client: Client, key: string): Promise<boolean> {
  const result = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken', [key])
  return result.rows[0]?.taken === true
}

/**
 * Which of these instances are absent: nobody holds their presence lock. One autocommit statement: a lock it gets
 * (the instance is absent) is released at once, at the statement's end.
 */
export async function absentInstances(db: Queryable, schema: string, instances: readonly string[]): Promise<Set<string>> {
  const result = await db.query<{ instance: string; absent: boolean }>(
    `SELECT instance, pg_try_advisory_xact_lock(hashtextextended($2 || instance, 0)) AS absent FROM unnest($1::text[]) AS instance`,
    [instances, presenceKey(schema, '')],
  )
  return new Set(result.rows.filter((row) => row.absent).map((row) => row.instance))
}
