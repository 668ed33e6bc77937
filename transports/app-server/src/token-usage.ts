import type { Message, SessionEvent } from '@harness-kernel/kernel'

/** Codex's `TokenUsageBreakdown`. */
export interface TokenUsageBreakdown {
  totalTokens: number
  inputTokens: number
  cachedInputTokens: number
  cacheWriteInputTokens: number
  outputTokens: number
  reasoningOutputTokens: number
}

const zero = (): TokenUsageBreakdown => ({
  totalTokens: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteInputTokens: 0,
  outputTokens: 0,
  reasoningOutputTokens: 0,
})

/** The usage a step recorded with an assistant message (`meta.usage`), as Codex counts it; undefined without. */
export function messageUsage(message: Message): TokenUsageBreakdown | undefined {
  return message.role === 'assistant' ? usageBreakdown(message.meta?.usage) : undefined
}

/**
 * The kernel's `ModelUsage` as Codex's breakdown: the same input and output totals (cached input and reasoning inside
 * them, in both), the cache's and reasoning's parts under Codex's names.
 */
export function usageBreakdown(usage: unknown): TokenUsageBreakdown | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined
  const count = (key: string) => {
    const value = (usage as Record<string, unknown>)[key]
    return typeof value === 'number' && Number.isFinite(value) ? value : 0
  }
  const breakdown = zero()
  breakdown.inputTokens = count('inputTokens')
  breakdown.outputTokens = count('outputTokens')
  breakdown.cachedInputTokens = count('cacheReadInputTokens')
  breakdown.cacheWriteInputTokens = count('cacheCreationInputTokens')
  breakdown.reasoningOutputTokens = count('reasoningTokens')
  breakdown.totalTokens = breakdown.inputTokens + breakdown.outputTokens
  return breakdown
}

/**
 * A thread's token usage for `thread/tokenUsage/updated` `{threadId, turnId, tokenUsage: {total, last,
 * modelContextWindow}}`: `last` is the latest model response's usage, `total` the thread's so far. Codex reports a
 * response's usage once the sampling request is done (after the step's tool calls), so `add` holds it until `take`.
 */
export class TokenUsageMeter {
  #total = zero()
  #last: { turnId: string; usage: TokenUsageBreakdown } | undefined
  #pending = false

  add(turnId: string, usage: TokenUsageBreakdown): void {
    for (const key of Object.keys(usage) as (keyof TokenUsageBreakdown)[]) this.#total[key] += usage[key]
    this.#last = { turnId, usage }
    this.#pending = true
  }

  /** The thread's usage from its log (a resumed thread). */
  seed(events: readonly SessionEvent[]): void {
    let turnId = ''
    for (const event of events) {
      if (event.type === 'turn/start') turnId = event.turnId
      const usage =
        event.type === 'message' ? messageUsage(event.message) : event.type === 'usage' ? usageBreakdown(event.usage) : undefined
      if (usage) this.add((event.type === 'message' || event.type === 'usage' ? event.turnId : undefined) ?? turnId, usage)
    }
    this.#pending = false
  }

  /** The notification's params for usage not reported yet (`all`: the latest, reported or not), else undefined. */
  take(threadId: string, all = false): Record<string, unknown> | undefined {
    if (!this.#last || !(this.#pending || all)) return undefined
    this.#pending = false
    return {
      threadId,
      turnId: this.#last.turnId,
      tokenUsage: { total: { ...this.#total }, last: { ...this.#last.usage }, modelContextWindow: null },
    }
  }
}
