import type { SessionBudget } from './budget/session-budget.js'
import type { Compactor } from './compaction/compactor.js'
import type { HookTapError } from './errors.js'
import type { Guardrails } from './guardrails/types.js'
import type { KernelHooks } from './hooks.js'
import type { ResolvedKernelOptions } from './kernel-options.js'
import type { Message } from './messages.js'
import type { ModelProvider } from './model.js'
import type { ProcessRunner } from './process-runner.js'
import type { Approvals, Logger } from './services.js'
import type { SessionEvent, SessionEventBody, UsageRecord } from './session-events.js'
import type { PendingSessionState, Transcript } from './session-state.js'
import type { Session } from './session-types.js'
import type { SteeringSource } from './steering/types.js'
import type { ToolRegistry } from './tool-registry.js'

/** What the loop needs from a session: its services, its log and its derived state. */
export interface SessionRuntime {
  readonly session: Session
  readonly hooks: KernelHooks
  readonly options: ResolvedKernelOptions
  readonly transcript: Transcript
  readonly pending: PendingSessionState
  /** The `model` service, resolved on first use (only the native driver samples it). */
  readonly model: ModelProvider
  readonly tools: ToolRegistry
  readonly approvals: Approvals
  readonly processRunner: ProcessRunner
  readonly guardrails: Guardrails
  readonly logger: Logger
  /** The `compactor` service, when one is provided: the native loop asks it before each model request. */
  readonly compactor: Compactor | undefined
  /** The sources claimed at each boundary, in order (the session's own queue first). */
  readonly steeringSources: readonly SteeringSource[]
  append(body: SessionEventBody): SessionEvent
  recordMessage(turnId: string | undefined, message: Message): void
  /** A `usage` event, priced like a message's `meta` (outside a turn: `turnId` undefined). */
  recordUsage(turnId: string | undefined, record: UsageRecord): void
  /** The session's spend and limits (the `budgets` option). */
  readonly budget: SessionBudget
  /** Settles once the log is on stable storage (per the `fsync` option's `steering` policy); rejects when it cannot be. */
  syncForSteering(): Promise<void>
  /** Set once the store can no longer write the session's log (`SessionLog.onLost`): nothing is appended after it. */
  readonly lost: Error | undefined
  notice(level: 'info' | 'warning' | 'error', text: string, source: string): void
  reportTapError(error: HookTapError): void
}
