import { KernelError } from '../errors.js'

/** Prices of one model in USD per million tokens. */
export interface ModelPrice {
  /** Input that was not read from the cache. */
  input: number
  output: number
  /** Input read from the cache. Default: `input` (a provider without a cache discount). */
  cacheRead?: number
  /** Input written to the cache (Anthropic's 5-minute write). Default: `input`. */
  cacheWrite?: number
  /** Other prices for a request whose input passes `aboveInputTokens` (some models charge more for long prompts). */
  longPrompt?: { aboveInputTokens: number; input: number; output: number; cacheRead?: number; cacheWrite?: number }
}

/**
 * Prices by model id. A string value is an alias: it names another id of the table (a gateway's name for a model, a
 * fine-tune billed as its base). Ids are matched as kernel/README.md, "Usage and cost", says.
 */
export type PriceTable = Readonly<Record<string, ModelPrice | string>>

const RATES = ['input', 'output', 'cacheRead', 'cacheWrite'] as const

/** A table's ids in lower case, every price checked: a bad one is an error naming the id and the field. */
export function checkedPrices(table: PriceTable, where: string): Record<string, ModelPrice | string> {
  if (typeof table !== 'object' || table === null || Array.isArray(table))
    throw new KernelError(`${where} must be an object of prices by model id`)
  const checked: Record<string, ModelPrice | string> = {}
  for (const [id, price] of Object.entries(table)) {
    const at = `${where}[${JSON.stringify(id)}]`
    if (typeof price === 'string') {
      if (price.trim() === '') throw new KernelError(`${at}: an alias must name a model id`)
      checked[id.toLowerCase()] = price.toLowerCase()
      continue
    }
    if (typeof price !== 'object' || price === null)
      throw new KernelError(`${at} must be a price object or the id of another entry, got ${typeof price}`)
    checkRates(price, at, ['input', 'output'])
    if (price.longPrompt !== undefined) {
      checkRates(price.longPrompt, `${at}.longPrompt`, ['input', 'output'])
      const above = price.longPrompt.aboveInputTokens
      if (!(Number.isInteger(above) && above > 0))
        throw new KernelError(`${at}.longPrompt.aboveInputTokens must be a whole number > 0, got ${above}`)
    }
    checked[id.toLowerCase()] = price
  }
  return checked
}

function checkRates(price: Partial<Record<(typeof RATES)[number], unknown>>, at: string, required: readonly string[]): void {
  for (const rate of RATES) {
    const value = price[rate]
    if (value === undefined && !required.includes(rate)) continue
    if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      throw new KernelError(`${at}.${rate} must be a number >= 0 (USD per million tokens), got ${JSON.stringify(value)}`)
    }
  }
}
