/** The longest wait a server can ask for that one timer can represent. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * How long a server asked to wait before the next try, in milliseconds: `retry-after-ms` (milliseconds, which the
 * Anthropic SDK also honours) first, then `retry-after` as seconds or as an HTTP date. Undefined when neither header is
 * there or usable (unparseable, negative, a date in the past).
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined
  const millis = parseMillis(headers.get('retry-after-ms'))
  if (millis !== undefined) return millis
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : clamp(date - now)
}

function parseMillis(value: string | null): number | undefined {
  const trimmed = value?.trim()
  if (!trimmed || !/^\d+(\.\d+)?$/.test(trimmed)) return undefined
  return clamp(Number(trimmed))
}

function clamp(ms: number): number | undefined {
  if (!Number.isFinite(ms) || ms < 0) return undefined
  return Math.min(Math.ceil(ms), MAX_TIMER_MS)
}
