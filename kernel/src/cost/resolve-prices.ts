import { KernelError } from '../errors.js'
import { DEFAULT_PRICES } from './default-prices.js'
import { checkedPrices, type PriceTable } from './model-price.js'
import { priceOf } from './price-lookup.js'

/** The `prices` option over the default table, checked: a bad price, or an alias that names no priced id, is an error. */
export function resolvePrices(prices: PriceTable | undefined): PriceTable {
  if (prices === undefined) return DEFAULT_PRICES
  const table = Object.freeze({ ...DEFAULT_PRICES, ...checkedPrices(prices, 'prices') })
  for (const [id, entry] of Object.entries(table)) {
    if (typeof entry === 'string' && priceOf(id, table) === undefined) {
      throw new KernelError(`prices[${JSON.stringify(id)}] is an alias of "${entry}", which names no priced model (or its aliases loop)`)
    }
  }
  return table
}
