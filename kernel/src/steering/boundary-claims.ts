import { randomUUID } from 'node:crypto'
import { raceAbort } from '../abort.js'
import type { Message } from '../messages.js'
import type { Boundary, InputItem, SteeringClaim, SteeringSource } from './types.js'

/** A claim the loop holds until its items are recorded (accept) or not (reject). */
export interface HeldClaim {
  claim: SteeringClaim
  transport: string
  boundary: Boundary
  /** One user message per item, in claim order. */
  messages: Message[]
  settled: boolean
  /** Set when the claim was settled through the log: settles once it was accepted (its record durable) or given back. */
  accepted?: Promise<void>
}

export function steeringMessage(item: InputItem, transport: string): Message {
  return {
    role: 'user',
    content: [{ type: 'text', text: item.text }],
    source: { kind: 'steering', transport },
    meta: { steeringItemId: item.id, ...(item.origin === undefined ? {} : { origin: item.origin }) },
  }
}

/**
 * Claims once from each source for one logical boundary. Empty claims are accepted at once (they
 * cost nothing); a claim that arrives after the turn aborted is rejected, so its input stays the host's.
 */
export async function claimBoundary(
  sources: readonly SteeringSource[],
  boundary: Boundary,
  signal: AbortSignal,
  returned: (held: HeldClaim) => void = () => {},
): Promise<HeldClaim[]> {
  const held: HeldClaim[] = []
  for (const source of sources) {
    let pending: Promise<SteeringClaim | undefined> | undefined
    let claim: SteeringClaim | undefined
    try {
      pending = source.claim(boundary, signal)
      claim = await raceAbort(pending, signal)
    } catch (error) {
      const transport = source.transport ?? 'host'
      pending?.then(
        (late) => {
          late?.reject()
          if (late !== undefined && late.items.length > 0)
            returned({ claim: late, transport, boundary, messages: messagesOf(late, transport), settled: true })
        },
        () => {},
      )
      // Claims already taken at this boundary from earlier sources go back to their hosts.
      rejectUnsettled(held, returned)
      throw error
    }
    if (!claim) continue
    if (claim.items.length === 0) {
      claim.accept()
      continue
    }
    const transport = source.transport ?? 'host'
    held.push({ claim, transport, boundary, messages: messagesOf(claim, transport), settled: false })
  }
  return held
}

/** Gives back what is not settled yet; `returned` hears of each claim given back. */
export function rejectUnsettled(claims: readonly HeldClaim[], returned: (held: HeldClaim) => void = () => {}): void {
  for (const held of claims) {
    if (held.settled) continue
    held.settled = true
    held.claim.reject()
    returned(held)
  }
}

function messagesOf(claim: SteeringClaim, transport: string): Message[] {
  return claim.items.map((item) => steeringMessage({ ...item, id: item.id ?? randomUUID() }, transport))
}
