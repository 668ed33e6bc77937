import type { ModelUsage } from '../model.js'
import { DEFAULT_PRICES } from './default-prices.js'
import type { PriceTable } from './model-price.js'
import { priceOf } from './price-lookup.js'

/**
 * The cost in USD of one model call's usage at the model's prices, or undefined when the model is not in `prices`
 * (default: the kernel's `DEFAULT_PRICES`) or the usage has no token counts. Input read from or written to the cache
 * is priced as such; the rest of `inputTokens` as input.
 */
export function costOf({
  usage,
  model,
  prices = DEFAULT_PRICES,
}: {
  usage: ModelUsage
  model: string
  prices?: PriceTable
}): number | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined
  const found = priceOf(model, prices)
  if (found === undefined) return undefined
  const input = usage.inputTokens ?? 0
  const long = found.price.longPrompt
  const price = long !== undefined && input > long.aboveInputTokens ? long : found.price
  const cacheRead = usage.cacheReadInputTokens ?? 0
  const cacheWrite = usage.cacheCreationInputTokens ?? 0
  const uncached = Math.max(0, input - cacheRead - cacheWrite)
  const micro =
    uncached * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    (usage.outputTokens ?? 0) * price.output
  return micro / 1_000_000
}
