import type { Message } from './messages.js'
import type { ModelUsage } from './model.js'

export type TurnStatus = 'completed' | 'blocked' | 'halted' | 'interrupted' | 'failed'
export type NoticeLevel = 'info' | 'warning' | 'error'

export interface HookRunEntry {
  kind: string
  text: string
}

/** One run of a foreign hook handler, as the dialects record it (`hook/run`). */
export interface HookRunRecord {
  dialect: string
  /** The dialect's run id (Codex: `<event-kebab>:<displayOrder>:<sourcePath>[:<toolUseId>]`). */
  id: string
  event: string
  status: 'running' | 'completed' | 'failed' | 'blocked' | 'stopped'
  durationMs: number
  command?: string
  key?: string
  source?: string
  sourcePath?: string
  displayOrder?: number
  executionMode?: 'sync' | 'async'
  scope?: 'thread' | 'turn'
  entries?: HookRunEntry[]
  exitCode?: number | null
  timedOut?: boolean
  startedAt?: number
  completedAt?: number
  turnId?: string
  toolUseId?: string
  decision?: unknown
  [extra: string]: unknown
}

export type SessionEventBody =
  | {
      type: 'session/start'
      sessionId: string
      cwd: string
      createdAt: string
      /** Set on a fork (`sessionStore.fork`): the session it was copied from, and the last turn copied, if one was named. */
      forkedFrom?: { sessionId: string; turnId?: string }
      /** Set on a subagent's session: the session that started it (its log names this one in `subagent/start`). */
      parent?: { sessionId: string; agentId: string; agentType: string; turnId?: string; callId?: string }
    }
  /** A subagent started from this session: its own session and log. */
  | {
      type: 'subagent/start'
      turnId?: string
      callId?: string
      agentId: string
      agentType: string
      sessionId: string
      transcriptPath: string
    }
  /**
   * A subagent's session ended: what it spent in all (its own subagents' included), so a resumed parent counts it
   * against its budgets. The last one of a subagent counts (a subagent resumed later reports its new total).
   */
  | { type: 'subagent/end'; sessionId: string; agentId: string; reason: string; spent: { tokens: number; costUsd: number } }
  | { type: 'session/resume'; sessionId: string }
  | { type: 'turn/start'; turnId: string }
  /** A driven program's own session id (Claude Code's `session_id`, Codex's thread id), for resume. */
  | { type: 'driver/session'; driver: string; nativeId: string }
  | { type: 'step/start'; turnId: string; step: number }
  | { type: 'message'; turnId?: string; message: Message }
  | { type: 'tool/call'; turnId: string; step: number; callId: string; name: string; input: unknown; decision: string }
  | { type: 'tool/result'; turnId: string; step: number; callId: string; output: string; isError: boolean }
  | ({ type: 'hook/run' } & HookRunRecord)
  | {
      type: 'steering/accepted'
      turnId: string
      step: number
      boundary: string
      transport: string
      itemIds: string[]
      droppedIds: string[]
    }
  | { type: 'steering/dropped'; turnId?: string; transport: string; itemIds: string[]; reason: string }
  /**
   * Input claimed at a boundary and given back to its host unrecorded (the turn ended or failed first): the host still
   * has it, and a later boundary or turn may take it. Written while the log can still be written.
   */
  | { type: 'steering/returned'; turnId: string; step: number; boundary: string; transport: string; itemIds: string[]; reason: string }
  | { type: 'notice'; level: NoticeLevel; text: string; source: string }
  /**
   * The conversation so far was replaced by a summary: from here on the messages are `prefix` (copies, e.g. Codex's
   * kept user messages), the summary (a user message) and the last `kept` messages before this event. `tokensBefore` is
   * the estimate that set off an `auto` compaction.
   */
  | {
      type: 'compaction'
      turnId?: string
      trigger: 'manual' | 'auto'
      summary: string
      kept: number
      prefix?: Message[]
      tokensBefore?: number
    }
  /**
   * Spend recorded apart from an assistant message, with the same fields as its `meta`: a step's usage that arrived
   * after the step's message was recorded (Codex reports a request's usage after its tool calls ran), or what a driven
   * program reports spending beyond its steps (Claude Code's own cost of a turn), or a model call that was not a step
   * (`purpose: 'compaction'`: a compaction's summary). Counted once, like a message's.
   */
  | { type: 'usage'; turnId?: string; step?: number; usage?: ModelUsage; model?: string; costUsd?: number; purpose?: 'compaction' }
  | { type: 'turn/end'; turnId: string; status: TurnStatus; error?: string; reason?: string }
  | { type: 'session/end'; reason: string }

/** A durable session event: one JSONL line. `v` is the log format version. */
export type SessionEvent = SessionEventBody & { v: 1; seq: number; at: string }

/** A `usage` event's fields besides its turn. */
export type UsageRecord = Omit<Extract<SessionEventBody, { type: 'usage' }>, 'type' | 'turnId'>
