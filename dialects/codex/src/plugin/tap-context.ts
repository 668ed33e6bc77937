import type { Session, ToolRegistry } from '@harness-kernel/kernel'
import type { CodexSessionState } from './codex-session.js'
import type { CodexFixes } from './options.js'
import { type DialectContext, type EventOccurrence, runCodexEvent } from './run-event.js'

export interface TapContext extends DialectContext {
  tools: ToolRegistry
  fixes: CodexFixes
  tmpDir: string | undefined
  states: WeakMap<Session, CodexSessionState>
}

/**
 * The dialect's state for a session: its own, or for a subagent's session one made from its parent's the first time it
 * is asked for. Undefined for a session the dialect never saw start.
 */
export function stateOf(ctx: Pick<TapContext, 'states'>, session: Session): CodexSessionState | undefined {
  const own = ctx.states.get(session)
  if (own !== undefined || session.parent === undefined) return own
  const child = stateOf(ctx, session.parent.session)?.forSubagent()
  if (child !== undefined) ctx.states.set(session, child)
  return child
}

/** Runs an event for a session the dialect knows; sessions it never saw (no session-start) run nothing. */
export function runFor(ctx: TapContext, session: Session, occurrence: Omit<EventOccurrence, 'session' | 'state' | 'tmpDir'>) {
  const state = stateOf(ctx, session)
  if (!state) return Promise.resolve([])
  return runCodexEvent(ctx, { ...occurrence, session, state, tmpDir: ctx.tmpDir })
}
