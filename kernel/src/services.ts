import type { Compactor } from './compaction/compactor.js'
import type { Driver } from './driver/types.js'
import type { AskCause, GuardedAction, Guardrails, Sandbox } from './guardrails/types.js'
import type { ModelProvider } from './model.js'
import type { ProcessRunner } from './process-runner.js'
import type { SessionStore } from './session-store.js'
import type { Session, ToolCall } from './session-types.js'
import type { SteeringSource } from './steering/types.js'
import type { ToolRegistry } from './tool-registry.js'

export interface Clock {
  now(): number
}

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export interface ApprovalRequest {
  session: Session
  turnId: string
  call: ToolCall
  reason: string | undefined
  signal: AbortSignal
  /** Set when the guardrails ask: the command or file change to approve (else a hook or policy tap asked). */
  action?: GuardedAction
  /** Set when the guardrails ask: whether the call runs inside the sandbox once approved. */
  sandboxed?: boolean
  /** An argv prefix the approver may allow from now on (Codex's `proposedExecpolicyAmendment`). */
  proposedRule?: string[]
  /** Set when the guardrails ask: a `prompt` rule, an escalation out of the sandbox, or the approval policy. */
  cause?: AskCause
}

/**
 * An approver's answer. `remember: 'session'` approves the same command (or file) for the rest of the session (Codex's
 * `acceptForSession`); `rule` allows an argv prefix from now on; `interrupt` on a refusal ends the turn (Codex's `cancel`).
 */
export type ApprovalDecision =
  | { kind: 'allow'; remember?: 'session'; rule?: string[] }
  | { kind: 'deny'; reason: string; interrupt?: boolean }

/** Decides a tool call that policy left at `ask` and no `tools/permission-request` tap decided. */
export interface Approvals {
  request(request: ApprovalRequest): Promise<ApprovalDecision>
}

/** The services the kernel knows; a plugin may provide more under its own keys. */
export interface Services {
  model: ModelProvider
  /** Runs each turn: `nativeDriver()` by default. */
  driver: Driver
  tools: ToolRegistry
  steering: SteeringSource
  sessionStore: SessionStore
  approvals: Approvals
  processRunner: ProcessRunner
  /** How tools' processes and file writes are confined (`bwrapSandbox()` by default); one for the kernel. */
  sandbox: Sandbox
  /** Per session: the sandbox and approval policy in force, and the approvals remembered (`guardrails()`). */
  guardrails: Guardrails
  clock: Clock
  logger: Logger
  session: Session
  /** When and how the conversation is compacted (`compaction()`); not registered by default. */
  compactor: Compactor
}

export type ServiceKey = keyof Services
