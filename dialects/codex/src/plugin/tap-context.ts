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

/** Runs an event for a session the dialect knows; sessions it never saw (no session-start) run nothing. */
export function runFor(ctx: TapContext, session: Session, occurrence: Omit<EventOccurrence, 'session' | 'state' | 'tmpDir'>) {
  const state = ctx.states.get(session)
  if (!state) return Promise.resolve([])
  return runCodexEvent(ctx, { ...occurrence, session, state, tmpDir: ctx.tmpDir })
}
