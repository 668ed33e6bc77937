import type { Message } from '../messages.js'
import type { SessionRuntime } from '../session-runtime.js'
import type { TurnInfo } from '../session-types.js'
import type { HeldClaim } from './boundary-claims.js'

/** Claimed items not yet consumed (a redelivered item, recorded or dropped before, is recognised by id). */
export function claimedMessages(rt: SessionRuntime, claims: readonly HeldClaim[]): Message[] {
  const { recordedSteeringIds, droppedSteeringIds } = rt.transcript
  const messages: Message[] = []
  for (const held of claims) {
    for (const message of held.messages) {
      const id = message.meta?.steeringItemId as string
      if (!recordedSteeringIds.has(id) && !droppedSteeringIds.has(id)) messages.push(message)
    }
  }
  return messages
}

/**
 * Settles each claim after its items are in the log: recorded ones as `recorded`, the rest as dropped (logged, a
 * notice, never redelivered) with their own reason or `reason`. Writes at once (a failed append throws here), and
 * accepts the claims once the log is on stable storage; when it cannot be, they are given back (their items stay the
 * host's). Each claim's `accepted` says when, and `claimsSettled` waits for them all.
 */
export function settleClaims(
  rt: SessionRuntime,
  turn: TurnInfo,
  claims: readonly HeldClaim[],
  entered: readonly Message[],
  reason: string,
  reasons: ReadonlyMap<string, string> = new Map(),
): void {
  const open = claims.filter((held) => !held.settled)
  if (open.length === 0) return
  const enteredIds = new Set(entered.map(steeringItemIdOf))
  const recorded = (message: Message) =>
    entered.includes(message) ||
    enteredIds.has(steeringItemIdOf(message)) ||
    rt.transcript.recordedSteeringIds.has(steeringItemIdOf(message) ?? '')
  const drops = new Map<HeldClaim, string[]>()
  for (const held of open) {
    const itemIds: string[] = []
    const droppedIds: string[] = []
    for (const message of held.messages) (recorded(message) ? itemIds : droppedIds).push(steeringItemIdOf(message) as string)
    drops.set(held, droppedIds)
    rt.append({
      type: 'steering/accepted',
      turnId: turn.id,
      step: held.boundary.step,
      boundary: held.boundary.kind,
      transport: held.transport,
      itemIds,
      droppedIds,
    })
    const why = [...new Set(droppedIds.map((id) => reasons.get(id) ?? reason))].filter((text) => text !== 'already recorded')
    if (why.length > 0) rt.notice('warning', `steering input from ${held.transport} was consumed by policy: ${why.join('; ')}`, 'kernel')
  }
  const accepted = acceptWhenDurable(rt, drops, (id) => reasons.get(id) ?? reason)
  // A failed sync is the turn's to report (`claimsSettled`), never an unhandled rejection meanwhile.
  accepted.catch(() => {})
  for (const held of open) {
    held.settled = true
    held.accepted = accepted
  }
}

/**
 * Settles when every claim settled so far has been accepted or given back; rejects with the first sync that failed.
 * A turn ends after it, so its steering is settled by the time its result is.
 */
export async function claimsSettled(claims: readonly HeldClaim[]): Promise<void> {
  await Promise.all(claims.map((held) => held.accepted))
}

async function acceptWhenDurable(
  rt: SessionRuntime,
  drops: ReadonlyMap<HeldClaim, string[]>,
  reasonOf: (id: string) => string,
): Promise<void> {
  try {
    await rt.syncForSteering()
  } catch (error) {
    for (const held of drops.keys()) held.claim.reject()
    throw error
  }
  for (const [held, droppedIds] of drops) {
    for (const id of droppedIds) held.claim.drop?.(id, reasonOf(id))
    held.claim.accept()
  }
}

export function steeringItemIdOf(message: Message): string | undefined {
  const id = message.meta?.steeringItemId
  return typeof id === 'string' ? id : undefined
}

/** A message that came from this step's input: the same object, or a tap's rewrite of the same steering item. */
export function isInputItem(message: Message, input: readonly Message[]): boolean {
  if (input.includes(message)) return true
  const id = steeringItemIdOf(message)
  return id !== undefined && input.some((item) => steeringItemIdOf(item) === id)
}
