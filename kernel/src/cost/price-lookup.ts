import { DEFAULT_PRICES } from './default-prices.js'
import type { ModelPrice, PriceTable } from './model-price.js'

/** A dated snapshot (`-20250929`, `-2025-08-07`, Vertex's `@20250929`) or `-latest`: the same model's price. */
const SNAPSHOT = /(?:-\d{8}|-\d{4}-\d{2}-\d{2}|@\d{8}|-latest)$/
const MAX_ALIASES = 8

/**
 * The price of a model by its id, or undefined when the table does not know it (never a guess: `gpt-5-mini` is not
 * priced as `gpt-5`). The id is compared in lower case, without a `[1m]`-style suffix, a `provider:` prefix, a path
 * (`openai/gpt-5.1`, Vertex's `publishers/anthropic/models/…`) or Bedrock's `us.anthropic.`…`-v1:0`; then as it is, and
 * without a snapshot suffix. A string entry is an alias, looked up the same way.
 */
export function priceOf(model: string, prices: PriceTable = DEFAULT_PRICES): { id: string; price: ModelPrice } | undefined {
  const table = lowerCased(prices)
  let id = model
  for (let hops = 0; hops <= MAX_ALIASES; hops++) {
    const found = entryOf(id, table)
    if (found === undefined) return undefined
    if (typeof found.entry !== 'string') return { id: found.id, price: found.entry }
    id = found.entry
  }
  return undefined
}

function entryOf(model: string, prices: PriceTable): { id: string; entry: ModelPrice | string } | undefined {
  const id = canonicalId(model)
  const undated = id.replace(SNAPSHOT, '')
  for (const candidate of undated === id ? [id] : [id, undated]) {
    const entry = prices[candidate]
    if (entry !== undefined) return { id: candidate, entry }
  }
  return undefined
}

const lowered = new WeakMap<PriceTable, PriceTable>()

/** The table with its ids (and alias targets) in lower case, made once per table. */
function lowerCased(prices: PriceTable): PriceTable {
  let table = lowered.get(prices)
  if (table === undefined) {
    table = Object.fromEntries(
      Object.entries(prices).map(([id, entry]) => [id.toLowerCase(), typeof entry === 'string' ? entry.toLowerCase() : entry]),
    )
    lowered.set(prices, table)
  }
  return table
}

function canonicalId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '')
    .replace(/^[a-z][a-z0-9_-]*:(?=[a-z])/, '')
    .replace(/^.*\//, '')
    .replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
}
