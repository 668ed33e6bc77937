import { errorMessage } from '../errors.js'
import type { SessionRuntime } from '../session-runtime.js'
import type { HeldClaim } from './boundary-claims.js'
import { steeringItemIdOf } from './settle-claims.js'

/**
 * A `steering/returned` record for a claim given back unrecorded, while the log can still be written: a log lost or
 * closed keeps nothing more, and the input is the host's again either way. `failure`: why the turn failed, if it did.
 */
export function recordReturned(rt: SessionRuntime, turnId: string, held: HeldClaim, signal: AbortSignal, failure?: string): void {
  if (rt.lost !== undefined) return
  const itemIds: string[] = []
  for (const message of held.messages) {
    const id = steeringItemIdOf(message)
    if (id !== undefined) itemIds.push(id)
  }
  if (itemIds.length === 0) return
  const reason = signal.aborted
    ? `the turn was interrupted (${errorMessage(signal.reason)})`
    : failure === undefined
      ? 'the turn ended before recording it'
      : `the turn failed: ${failure}`
  try {
    rt.append({
      type: 'steering/returned',
      turnId,
      step: held.boundary.step,
      boundary: held.boundary.kind,
      transport: held.transport,
      itemIds,
      reason,
    })
  } catch {
    // The log was closed meanwhile (the session ending): nothing more is written to it.
  }
}
