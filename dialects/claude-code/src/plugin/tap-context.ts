import { join } from 'node:path'
import { capHookText } from '@harness-kernel/hook-protocol'
import type { Session, ToolCall, ToolRegistry } from '@harness-kernel/kernel'
import { persistLargeOutput } from '../io/persisted-output.js'
import { type ClaudeToolView, presentTool } from '../io/tool-presentation.js'
import type { ClaudeCodeFixes } from './options.js'
import { type DialectContext, type EventOccurrence, runClaudeEvent } from './run-event.js'
import type { ClaudeSessionState } from './session-state.js'

export interface TapContext extends DialectContext {
  tools: ToolRegistry
  fixes: ClaudeCodeFixes
  stopHookBlockCap: number
  sessionEndTimeoutMs: number
  hookAsk: () => 'deny' | 'approvals'
  /** No approver is configured: an ask nobody answers is a denial. */
  noApprover: () => boolean
  states: WeakMap<Session, ClaudeSessionState>
  /** Where long hook output is saved, one folder per session. */
  hookOutputDir: string
  /** The model's name (`model` on SessionStart `compact`; the resume fields' price): the `model` option, else the provider's id. */
  modelName: () => string
}

/**
 * The dialect's state for a session: its own, or for a subagent's session its main session's (Claude Code runs a
 * subagent's hooks with the main session's settings, `prompt_id` and transcript). Undefined for a session never seen.
 */
export function stateOf(ctx: Pick<TapContext, 'states'>, session: Session): ClaudeSessionState | undefined {
  return ctx.states.get(session) ?? (session.parent === undefined ? undefined : stateOf(ctx, session.parent.session))
}

/** Runs an event for a session the dialect knows; sessions it never saw start run nothing. */
export function runFor(ctx: TapContext, session: Session, occurrence: Omit<EventOccurrence, 'session' | 'state'>) {
  const state = stateOf(ctx, session)
  if (!state) return Promise.resolve([])
  return runClaudeEvent(ctx, { ...occurrence, session, state })
}

/** A kernel call with Claude's tool name and input shape. */
export function claudeView(ctx: TapContext, session: Session, call: ToolCall): ClaudeToolView {
  return presentTool(call.name, call.input, ctx.tools.get(call.name)?.aliases, session.cwd)
}

/**
 * Long hook output (over 10,000 characters) becomes Claude Code's `<persisted-output>` preview. If the file cannot be
 * written, the text is capped as every other hook text is (`capHookText`).
 */
export function persistOutput(ctx: TapContext, session: Session, event: string, field: 'additionalContext' | 'stdout', toolUseId?: string) {
  return (text: string) => capHookText(persistLargeOutput(text, { dir: join(ctx.hookOutputDir, session.id), event, toolUseId, field }))
}
