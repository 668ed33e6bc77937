import type { GuardrailsPolicy, SessionEvent } from '@harness-kernel/kernel'
import type { BudgetSettings } from '../budget-requests.js'
import type { HostInputSettings } from '../host-input-protocol.js'

/** An input a front-end accepted for a thread another process owns: a `turn/steer`'s input, or a `turn/interrupt`. */
export type InboxKind = 'steer' | 'interrupt'

export interface InboxSteerPayload {
  input: unknown[]
  /** The turn the client steered (`expectedTurnId`); the owner steers the running turn, or starts one with it. */
  expectedTurnId: string
  clientUserMessageId: string | null
  /**
   * The connection of the accepting front-end (`acceptedBy`) that sent it, for a `turn/start`: a turn it starts asks
   * that connection its approvals and host input (relayed, `ask`), with the host-input settings it negotiated, and its
   * reached budgets when it opted in to be asked about them (`capabilities.budget`).
   */
  origin?: { connection: string; hostInput?: HostInputSettings; budget?: BudgetSettings }
  /** The sandbox and approval policy the `turn/start` asked for: the owner applies it before acting on the input. */
  policy?: Partial<GuardrailsPolicy>
}

export interface InboxInterruptPayload {
  turnId: string
}

export interface InboxItem {
  id: string
  threadId: string
  kind: InboxKind
  payload: InboxSteerPayload | InboxInterruptPayload
  /** Which front-end accepted it (for messages). */
  acceptedBy: string
}

/** Where an inbox row stands: `recorded` in the thread's log, or `dropped` (not recorded: reported back, never delivered again), else waiting. */
export type InboxState = 'pending' | 'claimed' | 'recorded' | 'dropped'

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
 * What the App Server needs of a shared session store to serve threads that live in other processes (the fleet):
 * an inbox that carries input to a thread's owner, the owner's claim of it, and the thread's log as it grows.
 * A store that writes a log settles inbox rows itself, in the transaction that writes the event recording them: a
 * `message` whose `meta.steeringItemId` is the row's id, `steering/accepted` (`itemIds` recorded, `droppedIds`
 * dropped) or `steering/dropped` (`itemIds` dropped).
 */
export interface FleetPort {
  /** This process, as leases and `acceptedBy` name it. */
  readonly instance: string
  /**
   * Records the input once per id (a retry with the same id finds the row) and wakes the owner; resolves once it is
   * committed, so the client may be answered. `duplicate` when the row was there already.
   */
  accept(item: InboxItem): Promise<{ state: InboxState; duplicate: boolean }>
  /**
   * The thread's inbox rows this process may act on now, oldest first, marked claimed under the lease this process
   * holds on the thread: pending ones, and ones claimed under an older epoch (their claimant lost the thread). None
   * when this process holds no live lease on it.
   */
  claim(threadId: string): Promise<InboxItem[]>
  /** Claimed rows go back to pending (not acted on after all). */
  release(ids: readonly string[]): Promise<void>
  /** Settles rows that no log event records (an interrupt: acted on, or with nothing to interrupt). */
  settle(ids: readonly string[], state: 'recorded' | 'dropped'): Promise<void>
  /** Where a row stands, for a retried request; undefined when there is none. */
  stateOf(id: string): Promise<InboxState | undefined>
  /**
   * Calls `wake(threadId)` when a thread gets input (`LISTEN`) and, as a safety net for a notification lost on a
   * reconnect, every `pollMs` for each thread with pending rows.
   */
  watchInbox(wake: (threadId: string) => void): { close(): Promise<void> }
  /** Threads with pending or stale-claimed input and no live lease: ones a process should take over. */
  orphans(): Promise<string[]>
  /** The live holder of the thread's lease, if any. */
  holder(threadId: string): Promise<{ pid: number; host: string; instance: string; epoch: number } | undefined>
  /**
   * Calls `onEvents` with the thread's events after `afterSeq` as they are committed, in order and each once, until
   * `signal` aborts; a lost connection is retried and the follower catches up from where it was.
   */
  follow(threadId: string, afterSeq: number, onEvents: (events: SessionEvent[]) => void, signal: AbortSignal): Promise<void>
  /** The turn the thread's log has open (its last `turn/start` without a `turn/end`), if any, as committed now. */
  openTurn(threadId: string): Promise<string | undefined>
  /**
   * The owner's side of a relayed request: sends it to `request.to` and settles with the connection's answer, or with
   * `unanswered` when `signal` aborts or the front-end is gone (its presence lost for longer than a lease).
   */
  ask(request: RelayedRequest, signal: AbortSignal): Promise<RelayedAnswer>
  /** Tells the front-end the owner is done with the request (it sends `serverRequest/resolved`). */
  endAsk(id: string, end: RelayedEnd): Promise<void>
  /**
   * The front-end's side: calls `onAsk` once for each request sent to this instance, and `onEnd` once when its owner
   * ends it; while watched, this instance is present (an owner waiting on it does not give up).
   */
  watchAsks(handlers: { onAsk(request: RelayedRequest): void; onEnd(id: string, end: RelayedEnd): void }): {
    close(): Promise<void>
  }
  /** The connection's answer to a relayed request; false when it was answered or ended before (the first answer wins). */
  answer(id: string, answer: { result: unknown } | { error: { code: number; message: string } }): Promise<boolean>
}
