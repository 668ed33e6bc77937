import { foldSessionEvents, NO_SESSION_FACTS, type SessionEvent, type SessionFacts, type SessionSummary } from '@harness-kernel/kernel'

/**
 * What a thread's row says about its log, kept up to date with each batch of events: the fields of `SessionSummary`
 * the JSONL store derives by reading the whole log, here derived once per event (the kernel's `foldSessionEvents`).
 */
export type ThreadSummaryState = SessionFacts

export const EMPTY_SUMMARY: ThreadSummaryState = NO_SESSION_FACTS

/** The state after `events`, by the rules every store summarizes with. */
export function applyEvents(state: ThreadSummaryState, events: readonly SessionEvent[]): ThreadSummaryState {
  return foldSessionEvents(state, events)
}

/** The summary columns of `threads`, in the order `summaryValues` gives them. */
export const SUMMARY_COLUMNS = ['cwd', 'created_at', 'updated_at', 'turns', 'ended', 'first_prompt', 'forked_from', 'parent'] as const

export function summaryValues(state: ThreadSummaryState): unknown[] {
  return [
    state.cwd ?? null,
    state.createdAt ?? null,
    state.updatedAt ?? null,
    state.turns,
    state.ended,
    state.firstPrompt ?? null,
    state.forkedFrom ?? null,
    state.parent === undefined ? null : JSON.stringify(state.parent),
  ]
}

/** A `threads` row as read with `SUMMARY_SELECT`. */
export interface ThreadSummaryRow {
  id: string
  cwd: string | null
  created_at: string | null
  updated_at: string | null
  turns: number
  ended: boolean
  first_prompt: string | null
  forked_from: string | null
  parent: SessionSummary['parent'] | null
  name: string | null
  archived: boolean
}

export const SUMMARY_SELECT = `id, ${SUMMARY_COLUMNS.join(', ')}, name, archived`

export function stateOfRow(row: ThreadSummaryRow): ThreadSummaryState {
  return {
    cwd: row.cwd ?? undefined,
    createdAt: row.created_at ?? undefined,
    updatedAt: row.updated_at ?? undefined,
    turns: row.turns,
    ended: row.ended,
    firstPrompt: row.first_prompt ?? undefined,
    forkedFrom: row.forked_from ?? undefined,
    parent: row.parent ?? undefined,
  }
}

export function summaryOfRow(row: ThreadSummaryRow, path: string): SessionSummary {
  return { id: row.id, path, ...stateOfRow(row), name: row.name ?? undefined, archived: row.archived }
}
