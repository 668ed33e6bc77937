import { KernelError } from '../errors.js'

/** Limits of one scope. Tokens are `inputTokens + outputTokens` of every model call: cached input counts in full. */
export interface BudgetLimits {
  /** Whole number > 0. */
  maxTokens?: number
  /** USD > 0: the calls' `costUsd` (priced by the `prices` table, or what the driven program reported). */
  maxCostUsd?: number
}

/** The `budgets` option: limits per session (every turn of it, its subagents' included) and per turn. */
export interface Budgets {
  session?: BudgetLimits
  turn?: BudgetLimits
}

export type BudgetScope = 'session' | 'turn'
export type BudgetKind = 'tokens' | 'costUsd'

/** A budget that is reached (`used >= limit`): whose (`sessionId`: a subagent's check may name its parent's), which, how far. */
export interface ReachedBudget {
  sessionId: string
  scope: BudgetScope
  kind: BudgetKind
  limit: number
  used: number
}

/** Checked limits (a bad one is an error naming it), with those of `over` replacing the base's one by one. */
export function checkedBudgets(base: Budgets | undefined, over: Budgets | undefined, where: string): Budgets {
  const merged: Budgets = {}
  for (const scope of ['session', 'turn'] as const) {
    const limits: BudgetLimits = {
      ...checkedLimits(base?.[scope], `${where}.${scope}`),
      ...checkedLimits(over?.[scope], `${where}.${scope}`),
    }
    if (limits.maxTokens !== undefined || limits.maxCostUsd !== undefined) merged[scope] = limits
  }
  return merged
}

function checkedLimits(limits: BudgetLimits | undefined, where: string): BudgetLimits {
  if (limits === undefined) return {}
  if (typeof limits !== 'object' || limits === null) throw new KernelError(`${where} must be an object ({ maxTokens?, maxCostUsd? })`)
  const checked: BudgetLimits = {}
  if (limits.maxTokens !== undefined) {
    if (!(Number.isInteger(limits.maxTokens) && limits.maxTokens > 0)) {
      throw new KernelError(`${where}.maxTokens must be a whole number > 0, got ${JSON.stringify(limits.maxTokens)}`)
    }
    checked.maxTokens = limits.maxTokens
  }
  if (limits.maxCostUsd !== undefined) {
    if (!(typeof limits.maxCostUsd === 'number' && Number.isFinite(limits.maxCostUsd) && limits.maxCostUsd > 0)) {
      throw new KernelError(`${where}.maxCostUsd must be a number of USD > 0, got ${JSON.stringify(limits.maxCostUsd)}`)
    }
    checked.maxCostUsd = limits.maxCostUsd
  }
  return checked
}
