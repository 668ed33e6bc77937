import { KernelError } from '@harness-kernel/kernel'
import type { LeaseState } from './lease-statements.js'

/** Why a lease held at `epoch` is no longer this process's, from the thread's row as it is now. */
export function leaseLost(sessionId: string, epoch: number, state: LeaseState | undefined): KernelError {
  if (state === undefined) return new KernelError(`session ${sessionId}: its thread row is gone`)
  if (state.epoch !== epoch)
    return new KernelError(`session ${sessionId} was taken over by another process (epoch now ${state.epoch}, ours ${epoch})`)
  if (state.holder === undefined) return new KernelError(`session ${sessionId}: its lock was released`)
  return new KernelError(`session ${sessionId}: its lease ran out at ${state.leaseUntil?.toISOString()} before it was renewed`)
}

/** The lease could not be renewed, or the log written, before the lease ran out: fail closed. */
export function databaseUnreachable(sessionId: string, address: string, leaseMs: number, cause: string): KernelError {
  return new KernelError(
    `session ${sessionId}: PostgreSQL at ${address} (no password) could not be reached before its lease (${leaseMs} ms) ran out: ${cause}`,
  )
}

/** The database refused the log's events for a reason another try would not change. */
export function writeRefused(sessionId: string, address: string, cause: string): KernelError {
  return new KernelError(`session ${sessionId}: PostgreSQL at ${address} (no password) refused the log's events: ${cause}`)
}

/** The log's thread was written past what this log appended, under its own epoch: never expected. */
export function logDiverged(sessionId: string, expected: number, found: number): KernelError {
  return new KernelError(`session ${sessionId}: its log in the database ends at seq ${found}, not ${expected} as written here`)
}

/** The lock was released while its log still had events to write. */
export function lockReleased(sessionId: string): KernelError {
  return new KernelError(`session ${sessionId}: its lock was released before its log was written`)
}

/** The lock is held live by someone: named as the file lock names its holder, with the end of its lease. */
export function leaseHeld(sessionId: string, state: LeaseState, ownInstance: string): KernelError {
  const holder = state.holder
  const named = `pid ${holder?.pid} on ${holder?.host}, since ${holder?.since}; its lease runs until ${state.leaseUntil?.toISOString()}`
  if (holder?.instance === ownInstance)
    return new KernelError(`session ${sessionId} is already open in this process (${named}); end it before opening it again`)
  return new KernelError(
    `session ${sessionId} is open in another process (${named}); it has one writer at a time. A holder that stops renewing its lease loses it when the lease runs out`,
  )
}
