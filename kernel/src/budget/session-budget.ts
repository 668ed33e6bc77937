import type { BudgetDecision, Halt } from '../decisions.js'
import type { KernelHooks } from '../hooks.js'
import type { SessionEvent } from '../session-events.js'
import type { Session, TurnInfo } from '../session-types.js'
import { amountOf, budgetLabel, reachedReason } from './budget-reason.js'
import type { BudgetKind, BudgetLimits, BudgetScope, Budgets, ReachedBudget } from './budget-types.js'
import { noSpend, type Spend, spendOf } from './spend.js'

export interface SessionBudgetParts {
  session: Session
  limits: Budgets
  /** The budget of the session that started this one (a subagent's): its usage counts there too. */
  parent: SessionBudget | undefined
  hooks: KernelHooks
  notice(level: 'info' | 'warning', text: string): void
}

interface Reached {
  owner: SessionBudget
  budget: ReachedBudget
}

const LIMIT_OF: Record<BudgetKind, keyof BudgetLimits> = { tokens: 'maxTokens', costUsd: 'maxCostUsd' }

/**
 * A session's spend and limits: what its log records as spent (and, while it runs, its subagents' spend), this turn's
 * share, and the check after each step that halts the turn when a limit is reached and no `agent/budget-reached` tap
 * raised it.
 */
export class SessionBudget {
  readonly #parts: SessionBudgetParts
  readonly #session: BudgetLimits
  readonly #turn: BudgetLimits
  /** This turn's raised turn limits (a raise holds for the turn it was made in). */
  #turnRaised: BudgetLimits = {}
  readonly #spent = noSpend()
  /** Set while a turn runs: its spend, its subagents' included. */
  #turnSpent: Spend | undefined
  /** This session's own steps' cost in the running turn (what a driver reconciles with its program's figure). */
  #turnOwnCostUsd = 0
  #halted: { turnId: string; halt: Halt; atStart: boolean } | undefined
  #checking: Promise<unknown> = Promise.resolve()
  readonly #unpriced = new Set<string>()
  /** Each subagent's total as its last `subagent/end` said. */
  readonly #subagents = new Map<string, Spend>()

  constructor(parts: SessionBudgetParts) {
    this.#parts = parts
    this.#session = { ...parts.limits.session }
    this.#turn = { ...parts.limits.turn }
  }

  /** Counts what an event of this session's log spent (`live`: appended now, so it counts for the parents too). */
  record(event: SessionEvent, live: boolean): void {
    if (event.type === 'subagent/end') {
      this.#subagentEnded(event.sessionId, event.spent, live)
      return
    }
    const spend = spendOf(event)
    if (spend === undefined) return
    this.#add(spend)
    if (this.#turnSpent !== undefined) this.#turnOwnCostUsd += spend.costUsd
    const parent = this.#parts.parent
    if (live && parent !== undefined) parent.#addFromSubagent(spend)
  }

  /** All this session spent so far: its steps, and its subagents' while they ran here or as their ends recorded. */
  get total(): Spend {
    return { ...this.#spent }
  }

  startTurn(): void {
    this.#turnSpent = noSpend()
    this.#turnOwnCostUsd = 0
    this.#turnRaised = {}
  }

  endTurn(): void {
    this.#turnSpent = undefined
  }

  /** What this session's own steps of the running turn cost, in USD, as recorded. */
  get turnOwnCostUsd(): number {
    return this.#turnOwnCostUsd
  }

  /** True when the turn was halted at its start by a budget (the session starts no turn by itself after it). */
  haltedAtStart(turnId: string): boolean {
    return this.#halted?.turnId === turnId && this.#halted.atStart
  }

  /** True when a cost limit applies to this session (its own or a parent's): unpriced usage is then worth a notice. */
  get watchesCost(): boolean {
    return this.#session.maxCostUsd !== undefined || this.#turn.maxCostUsd !== undefined || (this.#parts.parent?.watchesCost ?? false)
  }

  /** Says once per model that its usage has no price, when a cost limit applies. */
  unpriced(model: string | undefined): void {
    const key = model ?? ''
    if (!this.watchesCost || this.#unpriced.has(key)) return
    this.#unpriced.add(key)
    this.#parts.notice(
      'warning',
      model === undefined
        ? 'the model did not say which model it is, so its usage has no cost: it counts toward token budgets only'
        : `no price for model "${model}": its usage counts toward token budgets only (add it to the prices option to count its cost)`,
    )
  }

  /**
   * After a step's usage is recorded (and at a turn's start, `atStart`): each reached budget goes to
   * `agent/budget-reached`; a raise above what is used lets the turn go on, anything else halts it. Checks run one at
   * a time; once a turn is halted, later checks of it answer the same halt without asking again.
   */
  check(at: { turn: TurnInfo; step: number; signal: AbortSignal; atStart?: boolean }): Promise<Halt | undefined> {
    if (!this.limited) return Promise.resolve(undefined)
    const run = this.#checking.then(() => this.#check(at))
    this.#checking = run.catch(() => {})
    return run
  }

  /** True when a limit applies to this session (its own or a parent's). */
  get limited(): boolean {
    return Object.keys(this.#session).length > 0 || Object.keys(this.#turn).length > 0 || (this.#parts.parent?.limited ?? false)
  }

  async #check({ turn, step, signal, atStart = false }: { turn: TurnInfo; step: number; signal: AbortSignal; atStart?: boolean }) {
    if (this.#halted?.turnId === turn.id) return this.#halted.halt
    for (let reached = this.#reached(); reached !== undefined; reached = this.#reached()) {
      const { owner, budget } = reached
      const inherited = owner !== this
      const decision: BudgetDecision = await this.#parts.hooks.budgetReached.promise(
        { kind: 'undecided' },
        { session: this.#parts.session, turn, step, signal, budget: { ...budget } },
      )
      if (decision.kind === 'raise' && decision.limit > budget.used) {
        owner.#raise(budget.scope, budget.kind, decision.limit)
        this.#parts.notice(
          'info',
          `${budgetLabel(budget, inherited)} raised from ${amountOf(budget.kind, budget.limit)} to ${amountOf(budget.kind, decision.limit)}`,
        )
        continue
      }
      const short = decision.kind === 'raise' ? ` (a raise to ${amountOf(budget.kind, decision.limit)} does not cover what is used)` : ''
      const halt = { reason: decision.kind === 'halt' && decision.reason ? decision.reason : `${reachedReason(budget, inherited)}${short}` }
      this.#halted = { turnId: turn.id, halt, atStart }
      return halt
    }
    return undefined
  }

  /** The first reached budget: this turn's, this session's, then each parent's. */
  #reached(): Reached | undefined {
    for (let owner: SessionBudget | undefined = this; owner !== undefined; owner = owner.#parts.parent) {
      const budget = owner.#reachedOwn()
      if (budget !== undefined) return { owner, budget }
    }
    return undefined
  }

  #reachedOwn(): ReachedBudget | undefined {
    const sessionId = this.#parts.session.id
    const scopes: [BudgetScope, BudgetLimits, Spend | undefined][] = [
      ['turn', { ...this.#turn, ...this.#turnRaised }, this.#turnSpent],
      ['session', this.#session, this.#spent],
    ]
    for (const [scope, limits, spent] of scopes) {
      if (spent === undefined) continue
      for (const kind of ['tokens', 'costUsd'] as const) {
        const limit = limits[LIMIT_OF[kind]]
        const used = kind === 'tokens' ? spent.tokens : spent.costUsd
        if (limit !== undefined && used >= limit) return { sessionId, scope, kind, limit, used }
      }
    }
    return undefined
  }

  #raise(scope: BudgetScope, kind: BudgetKind, limit: number): void {
    const limits = scope === 'session' ? this.#session : this.#turnRaised
    limits[LIMIT_OF[kind]] = limit
  }

  #add(spend: Spend): void {
    this.#spent.tokens += spend.tokens
    this.#spent.costUsd += spend.costUsd
    if (this.#turnSpent !== undefined) {
      this.#turnSpent.tokens += spend.tokens
      this.#turnSpent.costUsd += spend.costUsd
    }
  }

  /**
   * A subagent's total at its end. Live, its steps were counted as they came: only its total is kept. Replayed (a
   * resumed session), it is what the log keeps of the subagent: what it adds to the subagent's total known so far.
   */
  #subagentEnded(sessionId: string, total: Spend, live: boolean): void {
    const known = this.#subagents.get(sessionId) ?? noSpend()
    this.#subagents.set(sessionId, { tokens: total.tokens, costUsd: total.costUsd })
    if (!live) this.#add({ tokens: Math.max(0, total.tokens - known.tokens), costUsd: Math.max(0, total.costUsd - known.costUsd) })
  }

  #addFromSubagent(spend: Spend): void {
    this.#add(spend)
    const parent = this.#parts.parent
    if (parent !== undefined) parent.#addFromSubagent(spend)
  }
}
