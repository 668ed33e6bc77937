import { describe, expect, it } from 'vitest'
import { retryAfterMs } from '../src/retry-after.js'

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-30T10:00:00Z')
  it('reads seconds, an HTTP date and retry-after-ms (which wins)', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '1' }), now)).toBe(1000)
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }), now)).toBe(500)
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 10:00:30 GMT' }), now)).toBe(30_000)
    expect(retryAfterMs(new Headers({ 'retry-after': '7', 'retry-after-ms': '250' }), now)).toBe(250)
  })

  it('ignores what it cannot use', () => {
    expect(retryAfterMs(undefined)).toBeUndefined()
    expect(retryAfterMs(new Headers(), now)).toBeUndefined()
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(retryAfterMs(new Headers({ 'retry-after': '-3' }), now)).toBeUndefined()
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 09:59:00 GMT' }), now)).toBeUndefined()
  })
})
