import type { SessionEvent } from '../session-events.js'

/** What model calls spent: tokens (`inputTokens + outputTokens`) and USD (where a cost is known). */
export interface Spend {
  tokens: number
  costUsd: number
}

export const noSpend = (): Spend => ({ tokens: 0, costUsd: 0 })

/**
 * What one session event spent: an assistant message a step recorded (`meta.usage`, `meta.costUsd`), or a `usage`
 * event (a step's usage that arrived after its message, a driven program's spend outside its steps).
 */
export function spendOf(event: SessionEvent): Spend | undefined {
  if (event.type === 'usage') return spendIn(event.usage, event.costUsd)
  if (event.type !== 'message' || event.message.role !== 'assistant' || event.message.meta === undefined) return undefined
  return spendIn(event.message.meta.usage, event.message.meta.costUsd)
}

function spendIn(usage: unknown, costUsd: unknown): Spend | undefined {
  const counts = typeof usage === 'object' && usage !== null ? (usage as Record<string, unknown>) : {}
  const tokens = count(counts.inputTokens) + count(counts.outputTokens)
  const cost = count(costUsd)
  return tokens === 0 && cost === 0 ? undefined : { tokens, costUsd: cost }
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)
