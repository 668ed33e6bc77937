/**
 * How long a server asked to wait before retrying, in ms: `retry-after-ms` (OpenAI's), else `retry-after` in
 * seconds or as an HTTP date. Undefined when neither is present or readable.
 */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined
  const ms = parseNumber(headers.get('retry-after-ms'))
  if (ms !== undefined) return Math.ceil(ms)
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  const seconds = parseNumber(value)
  if (seconds !== undefined) return Math.ceil(seconds * 1000)
  // An HTTP date names its weekday and month; V8 would also read `-1` or `2025` as dates.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** `Please try again in 1.5s` / `in 20ms` in a rate-limit message (streams carry no headers). */
export function retryAfterFromMessage(message: string): number | undefined {
  const match = /try again in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(message)
  if (!match) return undefined
  const amount = Number(match[1])
  return Math.ceil(match[2]!.toLowerCase() === 'ms' ? amount : amount * 1000)
}

function parseNumber(text: string | null): number | undefined {
  if (text === null || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined
  return Number(text)
}
