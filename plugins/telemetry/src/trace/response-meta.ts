/** Token counts of one model response, as the drivers record them in an assistant message's `meta.usage`. */
export interface ResponseUsage {
  inputTokens?: number
  outputTokens?: number
  cacheReadInputTokens?: number
  cacheCreationInputTokens?: number
  reasoningTokens?: number
}

/** What an assistant message's `meta` says of the response: usage, the model that answered, its cost, how it ended. */
export interface ResponseMeta {
  usage?: ResponseUsage
  model?: string
  costUsd?: number
  stopReason?: string
  responseId?: string
}

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens', 'reasoningTokens'] as const

/**
 * Reads `usage`, `model`, `costUsd`, `stopReason` and `responseId` of an assistant message's `meta` (or a `usage`
 * event) where a driver or the kernel recorded them; a field that is not a count, a name or a price is left out rather
 * than guessed. Prices are never computed here: a cost is there only when the kernel or the driver knew it.
 */
export function readResponseMeta(meta: Readonly<Record<string, unknown>> | undefined, into: ResponseMeta): void {
  if (meta === undefined) return
  const usage = meta.usage
  if (typeof usage === 'object' && usage !== null) {
    const counts: ResponseUsage = {}
    for (const key of USAGE_KEYS) {
      const value = (usage as Record<string, unknown>)[key]
      if (isCount(value)) counts[key] = value
    }
    // A later message of the same response carries the response's usage again, not more of it: the last one counts.
    into.usage = counts
  }
  if (typeof meta.model === 'string' && meta.model !== '') into.model = meta.model
  if (typeof meta.costUsd === 'number' && Number.isFinite(meta.costUsd) && meta.costUsd >= 0) into.costUsd = meta.costUsd
  if (typeof meta.stopReason === 'string') into.stopReason = meta.stopReason
  if (typeof meta.responseId === 'string') into.responseId = meta.responseId
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}
