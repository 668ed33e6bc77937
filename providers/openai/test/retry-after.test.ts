import { describe, expect, it } from 'vitest'
import { retryAfterFromMessage, retryAfterMs } from '../src/retry-after.js'

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z')
  const headers = (init: Record<string, string>) => new Headers(init)

  it('reads seconds, fractional seconds, OpenAI retry-after-ms, and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after': '1' }), now)).toBe(1000)
    expect(retryAfterMs(headers({ 'retry-after': '0.25' }), now)).toBe(250)
    expect(retryAfterMs(headers({ 'retry-after-ms': '40', 'retry-after': '9' }), now)).toBe(40)
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000)
  })

  it('a date in the past is no wait; absent or unreadable headers are undefined', () => {
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now)).toBe(0)
    expect(retryAfterMs(headers({}), now)).toBeUndefined()
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(retryAfterMs(headers({ 'retry-after': '-1' }), now)).toBeUndefined()
    expect(retryAfterMs(undefined, now)).toBeUndefined()
  })
})

describe('retryAfterFromMessage', () => {
  it('reads the wait in rate-limit messages', () => {
    expect(retryAfterFromMessage('Rate limit reached … Please try again in 1.5s. Visit …')).toBe(1500)
    expect(retryAfterFromMessage('Please try again in 20ms.')).toBe(20)
    expect(retryAfterFromMessage('The server had an error.')).toBeUndefined()
  })
})
