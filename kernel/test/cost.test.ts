import { describe, expect, it } from 'vitest'
import { costOf, createKernel, DEFAULT_PRICES, priceOf } from '../src/index.js'
import { tempDir } from './helpers.js'

describe('costOf', () => {
  it('prices uncached input, cache reads, cache writes and output each at its own rate', () => {
    // claude-sonnet-4-5: input 3, cache read 0.30, cache write 3.75, output 15 USD per million tokens.
    const usage = { inputTokens: 10_000, cacheReadInputTokens: 6_000, cacheCreationInputTokens: 2_000, outputTokens: 1_000 }
    const cost = costOf({ usage, model: 'claude-sonnet-4-5-20250929' })
    expect(cost).toBeCloseTo((2_000 * 3 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15) / 1e6, 12)
  })

  it('uses a model’s long-prompt prices above its threshold only', () => {
    const short = costOf({ usage: { inputTokens: 272_000, outputTokens: 1_000 }, model: 'gpt-5.5' })
    const long = costOf({ usage: { inputTokens: 272_001, outputTokens: 1_000 }, model: 'gpt-5.5' })
    expect(short).toBeCloseTo((272_000 * 5 + 1_000 * 30) / 1e6, 12)
    expect(long).toBeCloseTo((272_001 * 10 + 1_000 * 45) / 1e6, 12)
  })

  it('has no cost for a model the table does not know, nor for usage without token counts', () => {
    expect(costOf({ usage: { inputTokens: 10, outputTokens: 5 }, model: 'gpt-5-mini' })).toBeUndefined()
    expect(costOf({ usage: {}, model: 'gpt-5.1' })).toBeUndefined()
  })
})

describe('priceOf', () => {
  it('finds a model under its provider, snapshot and platform spellings', () => {
    for (const id of [
      'claude-sonnet-4-5',
      'Claude-Sonnet-4-5',
      'claude-sonnet-4-5-20250929',
      'anthropic:claude-sonnet-4-5',
      'anthropic/claude-sonnet-4-5',
      'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4-5@20250929',
      'claude-sonnet-4-5[1m]',
    ]) {
      expect(priceOf(id)?.id, id).toBe('claude-sonnet-4-5')
    }
    expect(priceOf('openai:gpt-5.1-2025-11-13')?.id).toBe('gpt-5.1')
    expect(priceOf('codex-mini-latest')?.id).toBe('codex-mini-latest')
    // Claude Code names Sonnet 4 claude-sonnet-4-20250514: an alias leads to its entry.
    expect(priceOf('claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4-0')
  })

  it('never guesses from a longer or a shorter id', () => {
    for (const id of ['gpt-5-mini', 'gpt-5.1-codex-max', 'claude-sonnet-4-5-fast', 'claude-sonnet', 'gpt', 'claude-fake']) {
      expect(priceOf(id), id).toBeUndefined()
    }
  })

  it('takes a table of the user’s own, aliases included', () => {
    const prices = { ...DEFAULT_PRICES, 'Team-Gateway': 'claude-haiku-4-5', 'claude-haiku-4-5': { input: 2, output: 4 } }
    expect(priceOf('team-gateway', prices)).toEqual({ id: 'claude-haiku-4-5', price: { input: 2, output: 4 } })
    // Without cache prices, cached input is priced as input.
    expect(costOf({ usage: { inputTokens: 100, cacheReadInputTokens: 100, outputTokens: 10 }, model: 'team-gateway', prices })).toBeCloseTo(
      (100 * 2 + 10 * 4) / 1e6,
      12,
    )
  })
})

describe('the prices option', () => {
  it('is checked when the kernel is made, naming the bad entry', () => {
    const cwd = tempDir()
    expect(() => createKernel([], { cwd, prices: { 'my-model': { input: -1, output: 2 } } })).toThrow(
      'prices["my-model"].input must be a number >= 0 (USD per million tokens), got -1',
    )
    expect(() => createKernel([], { cwd, prices: { 'my-model': { input: 1 } as never } })).toThrow('prices["my-model"].output')
    expect(() => createKernel([], { cwd, prices: { proxy: 'no-such-model' } })).toThrow(
      'prices["proxy"] is an alias of "no-such-model", which names no priced model',
    )
    expect(() => createKernel([], { cwd, prices: { a: 'b', b: 'a' } })).toThrow(/aliases loop/)
  })
})
