import { describe, expect, it } from 'vitest'
import { whenAborted } from '../src/index.js'

describe('whenAborted', () => {
  it('resolves once the signal aborts, and at once for one that already has; it never rejects', async () => {
    const controller = new AbortController()
    let settled = false
    const waiting = whenAborted(controller.signal).then(() => {
      settled = true
    })
    await Promise.resolve()
    expect(settled).toBe(false)
    controller.abort(new Error('stop'))
    await waiting
    expect(settled).toBe(true)
    await expect(whenAborted(AbortSignal.abort(new Error('done')))).resolves.toBeUndefined()
  })
})
