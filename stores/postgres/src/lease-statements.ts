import type { SessionLockHolder } from '@harness-kernel/kernel'
import type { Database } from './database.js'

/** A lease holder as the `holder` column keeps it: the lock's holder, and which store instance took it. */
export interface LeaseHolder extends SessionLockHolder {
  instance: string
}

/** Who asks for a lease. */
export interface LeaseClaimant {
  pid: number
  host: string
  instance: string
  leaseMs: number
}

export interface LeaseGrant {
  epoch: number
  /** The holder whose lease had run out, if the lease was taken from one. */
  previous: LeaseHolder | undefined
}

/** A thread's lease as it stands, and how far its log goes. */
export interface LeaseState {
  epoch: number
  lastSeq: number
  holder: LeaseHolder | undefined
  leaseUntil: Date | undefined
  live: boolean
}

// Every time here is the database's (`now()`): the processes sharing a thread share its clock, not their own.
const SINCE = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
const HOLDER = `jsonb_build_object('pid', $2::integer, 'host', $3::text, 'since', ${SINCE}, 'instance', $4::text)`
const LEASE_END = `now() + $5::double precision * interval '1 millisecond'`

/** A lease of a thread that has no row yet: the row is made with it, at epoch 1. Undefined if the row exists. */
export async function leaseNewThread(db: Database, id: string, claimant: LeaseClaimant): Promise<LeaseGrant | undefined> {
  const result = await db.query<{ epoch: string }>(
    `INSERT INTO ${db.tables.threads} (id, epoch, holder, lease_until) VALUES ($1, 1, ${HOLDER}, ${LEASE_END})
     ON CONFLICT (id) DO NOTHING RETURNING epoch`,
    claimantValues(id, claimant),
  )
  const row = result.rows[0]
  return row === undefined ? undefined : { epoch: Number(row.epoch), previous: undefined }
}

/**
 * The lease of an existing thread, if it is free (released, or run out): the epoch grows by one. The row is locked by
 * the subquery first, so the holder it reads is the one replaced. Undefined if someone holds a live lease.
 */
export async function leaseExistingThread(db: Database, id: string, claimant: LeaseClaimant): Promise<LeaseGrant | undefined> {
  const result = await db.query<{ epoch: string; previous: LeaseHolder | null }>(
    `UPDATE ${db.tables.threads} AS t SET epoch = t.epoch + 1, holder = ${HOLDER}, lease_until = ${LEASE_END}
     FROM (SELECT id, holder FROM ${db.tables.threads} WHERE id = $1 FOR UPDATE) AS old
     WHERE t.id = old.id AND (t.holder IS NULL OR t.lease_until IS NULL OR t.lease_until <= now())
     RETURNING t.epoch, old.holder AS previous`,
    claimantValues(id, claimant),
  )
  const row = result.rows[0]
  return row === undefined ? undefined : { epoch: Number(row.epoch), previous: row.previous ?? undefined }
}

/** Extends a lease this instance holds at `epoch` and that has not run out. False if it is not so. */
export async function renewLease(db: Database, id: string, epoch: number, instance: string, leaseMs: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE ${db.tables.threads} SET lease_until = now() + $4::double precision * interval '1 millisecond'
     WHERE id = $1 AND epoch = $2 AND holder->>'instance' = $3 AND lease_until > now()`,
    [id, epoch, instance, leaseMs],
  )
  return result.rowCount === 1
}

/** Gives a lease up, if it is still the one taken at `epoch` by this instance. */
export async function releaseLease(db: Database, id: string, epoch: number, instance: string): Promise<void> {
  await db.query(
    `UPDATE ${db.tables.threads} SET holder = NULL, lease_until = NULL WHERE id = $1 AND epoch = $2 AND holder->>'instance' = $3`,
    [id, epoch, instance],
  )
}

export async function readLease(db: Database, id: string): Promise<LeaseState | undefined> {
  const result = await db.query<{
    epoch: string
    last_seq: string
    holder: LeaseHolder | null
    lease_until: Date | null
    live: boolean | null
  }>(`SELECT epoch, last_seq, holder, lease_until, lease_until > now() AS live FROM ${db.tables.threads} WHERE id = $1`, [id])
  const row = result.rows[0]
  if (row === undefined) return undefined
  return {
    epoch: Number(row.epoch),
    lastSeq: Number(row.last_seq),
    holder: row.holder ?? undefined,
    leaseUntil: row.lease_until ?? undefined,
    live: row.holder !== null && row.live === true,
  }
}

/** The holder of a thread's lease and its epoch, if the lease is live (held, and not run out by the database's clock). */
export async function readLiveHolder(db: Database, id: string): Promise<(LeaseHolder & { epoch: number }) | undefined> {
  const result = await db.query<{ epoch: string; holder: LeaseHolder }>(
    `SELECT epoch, holder FROM ${db.tables.threads} WHERE id = $1 AND holder IS NOT NULL AND lease_until > now()`,
    [id],
  )
  const row = result.rows[0]
  return row === undefined ? undefined : { ...row.holder, epoch: Number(row.epoch) }
}

function claimantValues(id: string, claimant: LeaseClaimant): unknown[] {
  return [id, claimant.pid, claimant.host, claimant.instance, claimant.leaseMs]
}
