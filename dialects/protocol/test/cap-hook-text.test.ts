import { describe, expect, it } from 'vitest'
import { capHookText, excerptHookText, truncationMarker } from '../src/index.js'

describe('capHookText', () => {
  it('keeps a text within the cap whole', () => {
    expect(capHookText('short')).toBe('short')
    expect(capHookText('x'.repeat(32_768))).toBe('x'.repeat(32_768))
  })

  it('keeps the head and the tail around a marker with the full size', () => {
    const text = `${'a'.repeat(10)}${'m'.repeat(100)}${'z'.repeat(10)}`
    expect(capHookText(text, 10, 10)).toBe(
      `${'a'.repeat(10)}\n…[truncated: 120 bytes in all; the first 10 and last 10 shown]…\n${'z'.repeat(10)}`,
    )
    expect(truncationMarker(1_073_741_824, 16_384, 16_384)).toBe(
      '\n…[truncated: 1,073,741,824 bytes in all; the first 16,384 and last 16,384 shown]…\n',
    )
  })

  it('cuts on whole UTF-8 characters', () => {
    const text = 'é'.repeat(100)
    const capped = capHookText(text, 5, 5)
    expect(capped).toBe(`éé\n…[truncated: 200 bytes in all; the first 4 and last 4 shown]…\néé`)
    expect(capped).not.toContain('\uFFFD')
  })

  it('passes an excerpt it already made whole', () => {
    const once = capHookText('q'.repeat(100_000))
    expect(Buffer.byteLength(once)).toBeGreaterThan(32_768)
    expect(capHookText(once)).toBe(once)
  })

  it('an excerpt of an excerpt states the original size', () => {
    const first = capHookText('x'.repeat(1000), 100, 100)
    expect(excerptHookText(first, 10, 10)).toContain('…[truncated: 1,000 bytes in all; the first 10 and last 10 shown]…')
  })
})
