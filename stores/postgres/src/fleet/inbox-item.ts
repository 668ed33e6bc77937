import type { BoundaryKind } from '@harness-kernel/kernel'

/**
 * The inbox as the fleet sees it. These mirror the App Server's `FleetPort` types (transports/app-server
 * src/fleet/fleet-port.ts) without depending on that package: the store serves any front-end with the same shape.
 */

/** An input a front-end accepted for a thread another process owns: a `turn/steer`'s input, or a `turn/interrupt`. */
export type InboxKind = 'steer' | 'interrupt'

export interface InboxSteerPayload {
  input: unknown[]
  /** The turn the client steered (`expectedTurnId`). */
  expectedTurnId: string
  clientUserMessageId: string | null
  /**
   * The connection of the accepting front-end that sent it, for a `turn/start`: a turn it starts asks that connection
   * its approvals and host input (relayed, `ask`), with the host-input settings it negotiated, and its reached budgets
   * when it opted in to be asked about them.
   */
  origin?: { connection: string; hostInput?: HostInputSettings; budget?: BudgetSettings }
}

/** A connection's negotiated budget settings, as the App Server's `BudgetSettings`. */
export interface BudgetSettings {
  version: 1
  timeoutMs: number
}

/** A connection's negotiated host-input settings, as the App Server's `HostInputSettings`. */
export interface HostInputSettings {
  version: 1
  boundaries: BoundaryKind[]
  timeoutMs: number
  onTimeout: 'proceed'
}

export interface InboxInterruptPayload {
  turnId: string
}

export interface InboxItem {
  id: string
  threadId: string
  kind: InboxKind
  payload: InboxSteerPayload | InboxInterruptPayload
  /** Which front-end (fleet `instance`) accepted it. */
  acceptedBy: string
}

/**
 * Where an inbox row stands. `pending`: accepted, waiting for the thread's owner; `claimed`: taken by the lease holder
 * at some epoch (again claimable once a newer epoch holds the thread); `recorded`: in the thread's log, or acted on;
 * `dropped`: not acted on, handed back to the client and never delivered again.
 */
export type InboxState = 'pending' | 'claimed' | 'recorded' | 'dropped'

/** A thread's lease holder, as `holder()` names it. */
export interface FleetHolder {
  pid: number
  host: string
  instance: string
  epoch: number
}
