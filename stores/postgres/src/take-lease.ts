import { hostname } from 'node:os'
import { performance } from 'node:perf_hooks'
import { KernelError } from '@harness-kernel/kernel'
import { type LeaseLockContext, PostgresSessionLock } from './lease-lock.js'
import { type LeaseClaimant, leaseExistingThread, leaseNewThread, readLease } from './lease-statements.js'
import { leaseHeld } from './lock-errors.js'

/** Rounds at most: each lost one means the row changed between two statements (taken, released, or made). */
const ATTEMPTS = 5

/**
 * Takes a thread's lease: a new row at epoch 1, or an existing row whose lease is free or has run out, at the next
 * epoch. A live lease (this process's included) is a `KernelError` naming its holder.
 */
export async function takeLease(context: LeaseLockContext): Promise<PostgresSessionLock> {
  const { db, sessionId, instance, leaseMs } = context
  const claimant: LeaseClaimant = { pid: process.pid, host: hostname(), instance, leaseMs }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let sentAt = performance.now()
    const fresh = await leaseNewThread(db, sessionId, claimant)
    if (fresh !== undefined) return new PostgresSessionLock(context, fresh, sentAt)
    sentAt = performance.now()
    const taken = await leaseExistingThread(db, sessionId, claimant)
    if (taken !== undefined) return new PostgresSessionLock(context, taken, sentAt)
    const state = await readLease(db, sessionId)
    if (state?.live) throw leaseHeld(sessionId, state, instance)
  }
  throw new KernelError(`could not lock session ${sessionId}: its lease kept changing hands`)
}
