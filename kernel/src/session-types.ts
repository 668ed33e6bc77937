import type { ReachedBudget } from './budget/budget-types.js'
import type { CompactionResult } from './compaction/run-compaction.js'
import type { Halt } from './decisions.js'
import type { Guardrails } from './guardrails/types.js'
import type { Message } from './messages.js'
import type { ModelUsage } from './model.js'
import type { ProcessRunner } from './process-runner.js'
import type { HookRunRecord, NoticeLevel, SessionEvent, SessionEventBody, TurnStatus } from './session-events.js'
import type { InputItem, SteerOptions, SteerReceipt } from './steering/types.js'
import type { ToolOutput, ToolOutputStream } from './tool.js'

export type TurnInput = string | Message[]

export interface TurnInfo {
  id: string
  /** 1 for the session's first turn (counting resumed turns). */
  number: number
}

export interface TurnResult {
  status: TurnStatus
  turnId: string
  /** Every message recorded during the turn, in log order. */
  messages: Message[]
  lastAssistantMessage: string | null
  error?: string
  /** For `halted` and `blocked`: the user-facing reason. */
  reason?: string
}

export interface CompactOptions {
  /** What the summary should keep (Claude Code's `/compact <instructions>`; `custom_instructions` in its hooks). */
  instructions?: string
}

/**
 * Who interrupted a turn and why, as the caller of `session.interrupt()` says (the kernel cannot tell a host from a
 * plugin). Hook dialects pass it on: Claude Code's Interrupt hook has `source`, `reason` and `via`.
 */
export interface InterruptOrigin {
  /** `user`: a person, through a host (the default); `system`: the harness itself, such as a plugin or a policy hook. */
  by?: 'user' | 'system'
  /** `stop`: a request to stop (the default); `permission-denied`: a permission answer that also ended the turn. */
  cause?: 'stop' | 'permission-denied'
  /** How a person's stop arrived, when the host knows: at a terminal, or as a request from a client program. */
  via?: 'terminal' | 'client'
}

export interface InterruptReceipt {
  /** Ids of in-process steering items still queued; they stay queued. */
  stillQueued: string[]
}

export interface Session {
  readonly id: string
  readonly cwd: string
  readonly transcriptPath: string
  /** Set on a subagent's session: the session that started it, and as which agent. */
  readonly parent?: ParentLink | undefined
  /**
   * Runs a child process for this session: the kernel's `processRunner`, with each process group written to the
   * session's ledger while it runs, so a resume after a crash kills what was left. Hooks and tools run theirs here.
   */
  readonly processRunner: ProcessRunner
  /**
   * The sandbox and approval policy the session's tools run under, and the approvals remembered: a host changes it for
   * later calls with `guardrails.setPolicy()`. Hooks run outside it, as Codex's do.
   */
  readonly guardrails: Guardrails
  /** Messages derived from the log so far. */
  readonly messages: readonly Message[]
  run(input: TurnInput): Promise<TurnResult>
  steer(input: string | InputItem[], options?: SteerOptions): SteerReceipt
  /** Context for the next step; does not start a turn. */
  inject(message: Message): void
  interrupt(reason?: string, origin?: InterruptOrigin): InterruptReceipt
  /**
   * Replaces the conversation with a summary the session's model writes (after any running turn), as Codex's
   * `/compact` and Claude Code's do: `agent/pre-compact` may halt it; `agent/post-compact` and `agent/session-start`
   * (`compact`) follow. Uses the `compactor` service, or `defaultCompactor()` when none is provided.
   */
  compact(options?: CompactOptions): Promise<CompactionResult>
  /** Resolves when no turn is running and none is about to start from queued input. */
  idle(): Promise<void>
  end(reason?: string): Promise<void>
  /** Appends a durable event (dialects: `hook/run`; plugins: their own `notice`). */
  record(event: SessionEventBody): SessionEvent
  recordHookRun(run: HookRunRecord): SessionEvent
  notice(level: NoticeLevel, text: string, source: string): void
}

export interface StepPayload {
  session: Session
  turn: TurnInfo
  step: number
  signal: AbortSignal
}
/** `model/request`: one model call of a step. */
export interface ModelRequestPayload extends StepPayload {
  /** This call's id (a UUID), the same in its `model/response`. */
  requestId: string
}
/** How a model call ended: with the model's answer, an error (after the provider's retries), or the turn's interrupt. */
export type ModelCallOutcome =
  | { status: 'completed'; usage?: ModelUsage; responseId?: string }
  | { status: 'failed'; error: string }
  | { status: 'cancelled' }
/**
 * `model/response`: a model call of a step has ended, before its tool calls run. Its `signal` may have fired (a
 * cancelled call): a tap that does work of its own should not tie it to that signal.
 */
export interface ModelResponsePayload extends ModelRequestPayload {
  outcome: ModelCallOutcome
}
export interface PreStepPayload extends StepPayload {
  /** New input for this step; empty on a tool continuation. */
  input: Message[]
}
export interface ToolCall {
  id: string
  name: string
  input: unknown
}
export interface ToolCallPayload extends StepPayload {
  call: ToolCall
}
export interface PermissionPayload extends ToolCallPayload {
  reason: string | undefined
}
export interface ToolResultPayload extends ToolCallPayload {
  result: ToolOutput
}
export interface StopPayload extends StepPayload {
  stopHookActive: boolean
  lastAssistantMessage: string | null
}
export interface SessionStartPayload {
  session: Session
  source: 'startup' | 'resume' | 'clear' | 'compact'
  signal: AbortSignal
  /** Ends the session's next turn before any model call; the reason is shown to the user only. */
  halt(halt: Halt): void
}
export interface SessionEndPayload {
  session: Session
  reason: string
}
export interface CompactPayload {
  session: Session
  trigger: 'manual' | 'auto'
  /** The turn compacting (auto, mid-turn), or the compaction's own turn (manual), when there is one. */
  turn?: TurnInfo | undefined
  signal: AbortSignal
  /** What the user asked the summary to keep (`session.compact({ instructions })`). */
  instructions?: string | undefined
  /** `agent/post-compact` only: the summary written. */
  summary?: string | undefined
}
export interface SubagentInfo {
  id: string
  type: string
}
/** What links a subagent's session to the session that started it (`kernel.startSubagent`). */
export interface ParentLink {
  session: Session
  agent: SubagentInfo
  /** The parent's turn and tool call that started the subagent, when a tool did. */
  turnId?: string | undefined
  callId?: string | undefined
}
/**
 * `agent/subagent-start` and `agent/subagent-stop`: `session` and `turn` are the subagent's own (its first turn for a
 * start); `session.parent` leads to the session that started it. A plugin may fire them for a session of its own.
 */
export interface SubagentPayload extends StepPayload {
  agent: SubagentInfo
}
export interface InterruptPayload {
  session: Session
  turn: TurnInfo | undefined
  reason: string
  /** What the caller of `session.interrupt()` said about it; undefined when it said nothing. */
  origin?: InterruptOrigin | undefined
}
export interface NoticePayload {
  session: Session
  level: NoticeLevel
  text: string
  source: string
}
/** Streamed model text as it arrives (progress only: the recorded response is what counts). */
export interface ModelDeltaPayload extends StepPayload {
  text: string
}
/** A tool's output as it is produced (progress only: the tool's result is what counts). */
export interface ToolOutputPayload extends ToolCallPayload {
  stream: ToolOutputStream
  text: string
}
/**
 * `agent/budget-reached`: a budget of `budget.sessionId` (this session's, or a parent's for a subagent) is reached
 * after a step's usage was recorded (`step` 0: at the turn's start).
 */
export interface BudgetPayload extends StepPayload {
  budget: ReachedBudget
}
export interface SessionEventPayload {
  session: Session
  event: SessionEvent
}
