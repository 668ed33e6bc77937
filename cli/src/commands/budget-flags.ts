import type { Budgets } from '@harness-kernel/kernel'
import type { Command } from 'commander'
import { CliError } from '../cli-error.js'

/** The budget flags of `harness run` and `harness app-server`, as commander gives them (strings, checked by `budgetsFromFlags`). */
export interface BudgetFlags {
  /** `--max-tokens N`: the session's tokens. */
  maxTokens?: string
  /** `--max-cost-usd USD`: the session's cost. */
  maxCostUsd?: string
  /** `--max-turn-tokens N` */
  maxTurnTokens?: string
  /** `--max-turn-cost-usd USD` */
  maxTurnCostUsd?: string
}

export function withBudgetOptions(command: Command): Command {
  return command
    .option(
      '--max-tokens <n>',
      "the session's token budget: input + output tokens of every model call (cached input included); reaching it halts the turn",
    )
    .option('--max-cost-usd <usd>', "the session's cost budget in USD, at the prices table's prices (or what the driven program reports)")
    .option('--max-turn-tokens <n>', "each turn's token budget")
    .option('--max-turn-cost-usd <usd>', "each turn's cost budget in USD")
}

/** The kernel's `budgets` the flags give (each over the config's limit of that name), or undefined without any. */
export function budgetsFromFlags(flags: BudgetFlags): Budgets | undefined {
  const session = {
    ...optional('maxTokens', tokens(flags.maxTokens, '--max-tokens')),
    ...optional('maxCostUsd', usd(flags.maxCostUsd, '--max-cost-usd')),
  }
  const turn = {
    ...optional('maxTokens', tokens(flags.maxTurnTokens, '--max-turn-tokens')),
    ...optional('maxCostUsd', usd(flags.maxTurnCostUsd, '--max-turn-cost-usd')),
  }
  const budgets: Budgets = {
    ...(Object.keys(session).length > 0 ? { session } : {}),
    ...(Object.keys(turn).length > 0 ? { turn } : {}),
  }
  return Object.keys(budgets).length > 0 ? budgets : undefined
}

/** The config's budgets with the flags' limits over them, limit by limit. */
export function withFlagBudgets(configured: Budgets | undefined, flags: Budgets | undefined): Budgets | undefined {
  if (flags === undefined) return configured
  return {
    session: { ...configured?.session, ...flags.session },
    turn: { ...configured?.turn, ...flags.turn },
  }
}

function tokens(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const number = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN
  if (!(Number.isSafeInteger(number) && number > 0))
    throw new CliError(`${flag}: expected a whole number of tokens > 0, got ${JSON.stringify(value)}`)
  return number
}

function usd(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const number = /^\s*\$?\d+(\.\d+)?\s*$/.test(value) ? Number(value.trim().replace(/^\$/, '')) : Number.NaN
  if (!(Number.isFinite(number) && number > 0))
    throw new CliError(`${flag}: expected an amount of USD > 0 (such as 2.50), got ${JSON.stringify(value)}`)
  return number
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>)
}
