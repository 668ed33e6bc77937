import type { BudgetKind, BudgetScope, ReachedBudget } from './budget-types.js'

/** `$1.00`, `$0.0213`: four decimals at most, two at least. */
export function usd(amount: number): string {
  const fixed = amount.toFixed(4).replace(/0{1,2}$/, '')
  return `$${fixed}`
}

export function amountOf(kind: BudgetKind, amount: number): string {
  return kind === 'tokens' ? String(amount) : usd(amount)
}

/** `turn token budget`, `parent session's cost budget`. */
export function budgetLabel(budget: { scope: BudgetScope; kind: BudgetKind }, inherited: boolean): string {
  const owner = inherited ? `parent ${budget.scope}'s` : budget.scope
  return `${owner} ${budget.kind === 'tokens' ? 'token' : 'cost'} budget`
}

/** `turn token budget of 20000 reached: 20480 used`. */
export function reachedReason(budget: ReachedBudget, inherited: boolean): string {
  return `${budgetLabel(budget, inherited)} of ${amountOf(budget.kind, budget.limit)} reached: ${amountOf(budget.kind, budget.used)} used`
}
