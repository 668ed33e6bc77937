import type { Halt, PostToolDecision, PreToolDecision, StopDecision } from '../decisions.js'
import type { GuardrailsPolicy } from '../guardrails/types.js'
import type { HookName } from '../hooks.js'
import type { Message } from '../messages.js'
import type { ModelUsage, ToolSpec } from '../model.js'
import type { Logger } from '../services.js'
import type { Session, ToolCall, TurnInfo } from '../session-types.js'
import type { BoundaryKind } from '../steering/types.js'
import type { ToolOutput } from '../tool.js'

/** The version of this contract. A driver states it; the kernel refuses any other. */
export const DRIVER_SPEC = 'v1' as const

/** How a driver fires a kernel point: it `decides` (the decision takes effect) or `observes` (after the fact). */
export type PointSupport = 'decides' | 'observes'

/**
 * The points a driver may or may not fire within a turn. The others are the kernel's own on every
 * driver (session start and end, interrupt, notices, session events) or fired by plugins (compaction,
 * subagents).
 */
export const DRIVER_POINTS = [
  'agent/pre-step',
  'model/request',
  'model/response',
  'model/delta',
  'tools/pre-execute',
  'tools/permission-request',
  'tools/post-execute',
  'agent/turn-stopping',
] as const satisfies readonly HookName[]

export type DriverPoint = (typeof DRIVER_POINTS)[number]

/** What a driver can do, fixed when it is made. Compared with the composition at every session start. */
export interface DriverCapabilities {
  /** Each driver point it fires, and how; a point left out never fires under this driver. */
  readonly points: Readonly<Partial<Record<DriverPoint, PointSupport>>>
  /**
   * Mid-turn boundaries where the driver claims steering input. Every driver also claims at the start
   * of a turn (a `sampling` boundary of step 1).
   */
  readonly boundaries: readonly BoundaryKind[]
  /** True when input claimed at the `final` boundary continues the same turn; false when it starts the next one. */
  readonly finalInputContinuesTurn: boolean
  /** Where kernel tools run: the kernel's own loop, an in-process MCP server, or the program's dynamic tools. */
  readonly toolHosting: 'in-loop' | 'mcp' | 'dynamic-tools'
  /** How a session resumes: the kernel log is replayed to the model, or the program resumes its own session by id. */
  readonly resume: 'log-replay' | 'native-id'
  /** `kernel`: the driver samples the kernel's `model` service; `own`: the driven program brings its model. */
  readonly model: 'kernel' | 'own'
}

/** What a driver's session is opened with. */
export interface DriverSessionContext {
  readonly sessionId: string
  readonly cwd: string
  /** A directory of the driver's own for this session, under the kernel's state (created on demand by the driver). */
  readonly stateDir: string
  /** The program's own session id recorded by an earlier run of this session (resume), if any. */
  readonly nativeId?: string
  /** The kernel's system prompt option, if set. */
  readonly system?: string
  readonly logger: Logger
  /**
   * The session's sandbox and approval policy (read it at each turn: a host may change it). A driven program whose own
   * built-in tools run commands should run them under it; the kernel's tools run under it anyway.
   */
  readonly guardrails?: { readonly policy: GuardrailsPolicy }
}

export interface TurnRequest {
  readonly turn: TurnInfo
  /** The turn's input as given to `session.run()`; empty when the turn starts from queued steering input. */
  readonly input: readonly Message[]
}

export type DriverErrorCode = 'spawn' | 'protocol' | 'transport' | 'unsupported' | 'steering-ambiguous' | 'runtime'

export interface DriverError {
  readonly code: DriverErrorCode
  readonly message: string
  /** True when running the turn again may succeed (a crashed program restarts). */
  readonly retryable: boolean
}

/** How a turn ended, from the driver. `interrupted` is the kernel's: it follows from the turn's signal. */
export type TurnEnd =
  | { readonly status: 'completed' | 'blocked' | 'halted'; readonly reason?: string }
  | { readonly status: 'failed'; readonly error: DriverError }

/** Input claimed at one boundary. Its claims are held until an entry records them or the turn ends (then rejected). */
export interface ClaimedInput {
  /** One user message per item not yet consumed, in claim order (`meta.steeringItemId` names the item). */
  readonly messages: readonly Message[]
  /** Settles the claims without new input: their items were recorded or dropped before (a redelivery). */
  settle(): void
}

/** The outcome of one entered steering item in the driven program. */
export type Admission = { readonly id: string } & ({ readonly state: 'recorded' } | { readonly state: 'dropped'; readonly reason: string })

/** Input that passed `agent/pre-step`; nothing is written until `record` (or `abandon`). */
export interface Entry {
  /** The user messages that entered, as policy left them. */
  readonly messages: readonly Message[]
  /** Developer context for this step: from `session.inject()`, session-start taps and the pre-step decision. */
  readonly context: readonly Message[]
  /** Set when policy rejected the whole input (with its reason, when it gave one). */
  readonly rejected?: { readonly reason?: string }
  readonly halt?: Halt
  /**
   * Writes the context and the recorded messages, then settles every claim once the log is on stable
   * storage (before the turn ends): recorded items are accepted, the rest are dropped with their reason.
   * Without admissions every entered message counts as recorded. Called at most once.
   */
  record(admissions?: readonly Admission[]): void
  /** None of the input reached the program: every claim goes back to its source for redelivery. */
  abandon(): void
}

/** One kernel tool call run through `tools/pre-execute` → permission → execute → `tools/post-execute`. */
export interface ToolOutcome {
  /** What the model should see (a denial is an error result with the reason). */
  readonly result: ToolOutput
  /** Developer context the taps added, to be shown after the result. */
  readonly context: readonly Message[]
  readonly halt?: Halt | undefined
}

export interface StopOutcome {
  /** `stop`: the turn ends; `continue`: one more request in the same turn, with these messages. */
  readonly decision: StopDecision
  /** True when the continuation cap stopped the turn although a tap asked to continue. */
  readonly capped: boolean
}

/**
 * The kernel side of one turn, handed to `DriverSession.runTurn`. Through it a driver asks for all
 * that only the kernel does, so each point fires once and is logged alike on every driver. Domain
 * outcomes (denials, drops, blocks, stops) are values; only a broken kernel throws.
 */
export interface TurnHost {
  readonly session: Session
  readonly turn: TurnInfo
  /** The turn's signal: aborted by `session.interrupt()`. */
  readonly signal: AbortSignal
  /** The kernel tools to expose, as JSON Schema specs (`parallel`: calls may run together). */
  readonly tools: readonly (ToolSpec & { readonly parallel: boolean })[]
  /** Takes the halt a session-start tap set for the session's next turn (the turn ends before any model call). */
  takeSessionHalt(): Halt | undefined
  /** True when a tap watches `model/delta`: only then is streaming text worth forwarding. */
  readonly wantsDeltas: boolean
  /**
   * Resolves when a steering source may have input to claim mid-turn (or `signal` aborted): for a driver
   * that steers `live`, between its boundaries. It may resolve with nothing to claim; an empty claim then
   * costs nothing, and a driver should not claim again before new input arrives or a boundary passes.
   */
  waitForInput(signal: AbortSignal): Promise<void>
  /** Claims every steering source at a boundary this driver declared (or the turn start). */
  claim(boundary: { readonly kind: BoundaryKind; readonly step: number }): Promise<ClaimedInput>
  /** Runs `agent/pre-step` over new input (a turn's prompt or claimed steering input). */
  enter(input: { readonly step: number; readonly messages: readonly Message[]; readonly claimed?: ClaimedInput }): Promise<Entry>
  /**
   * Records a model message (assistant text and tool calls) in the log. A step's assistant message carries the step's
   * usage in `meta.usage` and the model's id in `meta.model` when the driver has them; the kernel adds `meta.costUsd`
   * from its `prices` when the driver gives none.
   */
  recordMessage(message: Message): void
  /**
   * Records a step's usage that arrived after its assistant message was recorded, or a driven program's own cost
   * beyond its steps' (a `usage` event, priced as a message's `meta` is). Each usage is recorded once.
   */
  recordUsage(record: { readonly step: number; readonly usage?: ModelUsage; readonly model?: string; readonly costUsd?: number }): void
  /**
   * After a step's usage is recorded: resolves with the halt to end the turn with when a budget is reached (the
   * session's or the turn's, or a parent session's) and no `agent/budget-reached` tap raised it. A driver ends the turn
   * through its halt path; once it has halted, later checks of the turn resolve with the same halt.
   */
  checkBudget(step: number): Promise<Halt | undefined>
  /** What this session's own steps of this turn cost so far in USD, as recorded (for a driver whose program reports its own). */
  readonly turnCostUsd: number
  /**
   * Runs one kernel tool call; logs the call and its decision, not its result. `signal` (besides the
   * turn's) stops this call alone: the program cancelled it, or its turn ended before the call did. A budget reached
   * meanwhile (a subagent's usage counts toward its parent's) comes back as the outcome's `halt`.
   */
  runTool(call: ToolCall, step: number, options?: { readonly signal?: AbortSignal }): Promise<ToolOutcome>
  /**
   * For a tool the program runs itself (a built-in): `tools/pre-execute` alone. `ask` is for
   * `permission`; the program executes the call.
   */
  preExecute(call: ToolCall, step: number): Promise<PreToolDecision>
  /** For a program-run tool the program asks about: `tools/permission-request`, then the approver. */
  permission(call: ToolCall, step: number, reason?: string): Promise<{ kind: 'allow'; input?: unknown } | { kind: 'deny'; reason: string }>
  /** For a program-run tool after it ran: `tools/post-execute`. */
  postExecute(call: ToolCall, result: ToolOutput, step: number): Promise<PostToolDecision>
  /** Logs a tool call's result as the model will see it (its context goes in with `recordMessage` after). */
  recordToolResult(step: number, callId: string, result: ToolOutput): void
  /** Runs `agent/turn-stopping` with the continuation cap; a `continue`'s messages are recorded here. */
  stopping(input: { readonly step: number; readonly stopHookActive: boolean; readonly continues: number }): Promise<StopOutcome>
  /** Streamed model text (progress only). */
  delta(step: number, text: string): void
  /** Records the program's own session id, for `resume`. */
  recordNativeId(nativeId: string): void
  notice(level: 'info' | 'warning' | 'error', text: string): void
}

/** An open session of a driver: runs one turn at a time. */
export interface DriverSession {
  /** Runs one turn to its end. Throwing ends the turn `failed` (or `interrupted` when the signal aborted). */
  runTurn(request: TurnRequest, host: TurnHost): Promise<TurnEnd>
  /** Idempotent: ends the program's session and waits for its process. */
  close(): Promise<void>
}

/** A driver: the `driver` service. The native loop is one; others run each turn inside a real program. */
export interface Driver {
  readonly specificationVersion: typeof DRIVER_SPEC
  /** A short id (`native`, `claude-code`): in notices, log records and state paths. */
  readonly id: string
  readonly capabilities: DriverCapabilities
  open(context: DriverSessionContext): Promise<DriverSession>
}
