import { CLAUDE_EVENTS, isProducedEvent, type ProducedEvent } from '@harness-kernel/claude-code'

/** The hook dialects `harness hooks` knows. */
export const DIALECTS = ['codex', 'claude-code'] as const
export type Dialect = (typeof DIALECTS)[number]

/** The events `harness hooks exec claude-code` runs: those the harness fires, in Claude Code's order. */
export const CLAUDE_EXEC_EVENTS: readonly ProducedEvent[] = CLAUDE_EVENTS.filter(isProducedEvent)
