/**
 * Server requests relayed between processes, as the fleet sees them. These mirror the App Server's `FleetPort` types
 * (transports/app-server src/fleet/fleet-port.ts) without depending on that package.
 */

/** A server request (an approval, host input) a thread's owner relays to a connection of another front-end. */
export interface RelayedRequest {
  /** Unique across the fleet. */
  id: string
  threadId: string
  turnId: string
  kind: 'approval' | 'hostInput'
  method: string
  params: unknown
  /** The front-end (its fleet `instance`) and its connection to ask. */
  to: { instance: string; connection: string }
}

/**
 * How a relayed request ends for the owner: the connection's answer (a JSON-RPC result or error), or `unanswered`
 * with the reason when none will come (the front-end is gone, or the owner stopped waiting).
 */
export type RelayedAnswer = { result: unknown } | { error: { code: number; message: string } } | { unanswered: string }

/** The owner is done with a relayed request: `expired` (it stopped waiting for an answer) or `resolved` (answered, acted on). */
export type RelayedEnd = 'expired' | 'resolved'

/**
 * Where an `asks` row stands. `pending`: asked, not yet delivered; `sent`: delivered to the front-end's watch;
 * `answered`: the connection answered (the first answer wins); `resolved`, `expired`: ended by the owner (`endAsk`,
 * or `ask` giving up on a front-end that is gone), for good.
 */
export type AskState = 'pending' | 'sent' | 'answered' | RelayedEnd
