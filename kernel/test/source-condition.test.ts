import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as kernel from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'

describe('the dev loop', () => {
  it('tests import the workspace packages from their sources, not from dist/', async () => {
    const resolved = await import.meta.resolve?.('@harness-kernel/kernel')
    const where = resolved ? fileURLToPath(resolved) : createRequire(import.meta.url).resolve('@harness-kernel/kernel')
    expect(typeof kernel.createKernel).toBe('function')
    expect(where).toMatch(/kernel[\\/]src[\\/]index\.ts$/)
  })
})
