/** One unit of host input. `id` identifies it across redelivery; the kernel assigns one when absent. */
export interface InputItem {
  id?: string
  type: 'text'
  text: string
  /**
   * `harness`: input the harness adds itself (a subagent's notification), recorded like any other item; a dialect whose
   * program runs no prompt hook for such input (Codex) runs none. The message carries it as `meta.origin`.
   */
  origin?: 'harness'
}

/**
 * Where a driver claims host input: `sampling` before a model request (step 1 is the turn's start),
 * `final` when the model answered without tool calls, `tool` while a kernel tool call's result is
 * parked inside a driven program (the input folds in with that result).
 */
export type BoundaryKind = 'sampling' | 'final' | 'tool'

export interface Boundary {
  kind: BoundaryKind
  sessionId: string
  turnId: string
  step: number
}

export interface SteeringClaim {
  readonly items: InputItem[]
  /** The items are durably recorded (or consumed by policy). Called at most once. */
  accept(): void
  /** The items were not recorded; they remain the host's. Called at most once. */
  reject(): void
  /** Optional: before `accept`, the kernel names items a policy dropped (with why). */
  drop?(itemId: string, reason: string): void
}

/** Where host-owned input comes from. The kernel pulls it at boundaries it owns (DESIGN §5). */
export interface SteeringSource {
  readonly capability: 'boundary' | 'live'
  /** The name recorded in message sources: `{kind:'steering', transport}`. */
  readonly transport?: string
  /** Optional: the boundary kinds this source expects to be claimed at; a driver without one gets a notice. */
  readonly boundaries?: readonly BoundaryKind[]
  /**
   * Resolves when the source may have input to claim at a mid-turn boundary (input only a new turn may
   * take does not count), or when `signal` aborts. A live driver waits on it between boundaries.
   */
  wait(signal: AbortSignal): Promise<void>
  claim(boundary: Boundary, signal: AbortSignal): Promise<SteeringClaim | undefined>
}

/** Receipt outcome of `session.steer()`. The promise rejects with `SteeringCancelledError` otherwise. */
export interface SteerOutcome {
  state: 'recorded' | 'dropped'
  itemIds: string[]
  /** For `dropped`: why a policy consumed the input. */
  reason?: string
}

export type SteerState = 'queued' | 'claimed' | 'recorded' | 'dropped' | 'returned' | 'cancelled'

export interface SteerOptions {
  /** `next-boundary` (default): the running turn's next boundary. `next-turn`: only a new turn takes it. */
  when?: 'next-boundary' | 'next-turn'
}

export interface SteerReceipt extends Promise<SteerOutcome> {
  readonly itemIds: readonly string[]
  state(): SteerState
}
