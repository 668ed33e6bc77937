import type { ReachedBudget } from '@harness-kernel/kernel'
import { z } from 'zod'
import type { RpcResponse } from './rpc-peer.js'

/** The server request a connection that opted in is sent when a budget of a turn it started is reached. */
export const BUDGET_REQUEST = 'turn/budget/request'

/** The negotiated budget settings of one connection (`initialize` `capabilities.budget`). */
export interface BudgetSettings {
  version: 1
  /** How long the server waits for an answer before the turn halts. */
  timeoutMs: number
}

export const DEFAULT_BUDGET_TIMEOUT_MS = 60_000
export const MIN_BUDGET_TIMEOUT_MS = 1_000
export const MAX_BUDGET_TIMEOUT_MS = 600_000

export const budgetCapabilitySchema = z.object({ version: z.number().int().optional(), timeoutMs: z.number().optional() })

/** A connection's opt-in: version 1 (or none given), its timeout clamped to 1 s–10 min; any other version is no opt-in. */
export function negotiateBudget(asked: z.infer<typeof budgetCapabilitySchema> | null | undefined): BudgetSettings | undefined {
  if (!asked) return undefined
  if (asked.version !== undefined && asked.version !== 1) return undefined
  const wanted = asked.timeoutMs ?? DEFAULT_BUDGET_TIMEOUT_MS
  return { version: 1, timeoutMs: Math.min(MAX_BUDGET_TIMEOUT_MS, Math.max(MIN_BUDGET_TIMEOUT_MS, Math.round(wanted))) }
}

/** `turn/budget/request` params: the thread, its turn, and the budget reached (whose, which, its limit, what is used). */
export function budgetRequestParams(threadId: string, turnId: string, budget: ReachedBudget): Record<string, unknown> {
  const { scope, kind, limit, used, sessionId } = budget
  return { threadId, turnId, budget: { scope, kind, limit, used, ...(sessionId === threadId ? {} : { sessionId }) } }
}

/** The new limit an answer gives (`{limit}` above what is used); anything else (an error, `null`, no number) is none. */
export function raisedLimit(answer: RpcResponse, budget: ReachedBudget): number | undefined {
  if (answer.error !== undefined) return undefined
  const limit = (answer.result as { limit?: unknown } | null | undefined)?.limit
  return typeof limit === 'number' && Number.isFinite(limit) && limit > budget.used ? limit : undefined
}
