import type { ModelPrice, PriceTable } from './model-price.js'

// USD per million tokens. Claude's are the list prices in Claude Code 2.1.336's built-in model catalog (the `claude`
// binary of @anthropic-ai/claude-agent-sdk 0.3.336, the driver's pin; read 2026-12-05): the prices Claude Code's own
// `total_cost_usd` uses, so the kernel's cost of a step and Claude Code's agree. `cacheWrite` is the 5-minute write
// (a 1-hour write costs more; usage does not tell them apart).
const claude = (input: number, output: number, cacheRead: number): ModelPrice => ({ input, output, cacheRead, cacheWrite: input * 1.25 })

// OpenAI's from developers.openai.com, read 2026-12-05: the model pages of gpt-5.1, gpt-5-codex (gpt-5's and
// gpt-5.1-codex's prices are the same) and codex-mini-latest; gpt-5.4 and gpt-5.5 as OpenAI's API changelog gave
// them at launch (2026-03-05 and 2026-04-24), with their surcharge for prompts over 272K tokens. OpenAI bills no cache
// write.
const openai = (input: number, output: number, cacheRead: number, longPrompt?: ModelPrice['longPrompt']): ModelPrice => ({
  input,
  output,
  cacheRead,
  ...(longPrompt === undefined ? {} : { longPrompt }),
})

/** The kernel's default prices; the `prices` option extends and overrides them. Prices change: check before you rely on them. */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'claude-3-5-haiku': claude(0.8, 4, 0.08),
  'claude-haiku-4-5': claude(1, 5, 0.1),
  'claude-haiku-5-5': {
    ...claude(0.1, 0.5, 0.01),
    longPrompt: { aboveInputTokens: 100_000, input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite: 0.625 },
  },
  'claude-3-5-sonnet': claude(3, 15, 0.3),
  'claude-3-7-sonnet': claude(3, 15, 0.3),
  'claude-sonnet-4-0': claude(3, 15, 0.3),
  'claude-sonnet-4': 'claude-sonnet-4-0',
  'claude-sonnet-4-5': claude(3, 15, 0.3),
  'claude-sonnet-4-6': claude(3, 15, 0.3),
  'claude-sonnet-5': claude(2, 10, 0.2),
  'claude-sonnet-5-5': claude(2, 10, 0.1),
  'claude-opus-4-0': claude(15, 75, 1.5),
  'claude-opus-4': 'claude-opus-4-0',
  'claude-opus-4-1': claude(15, 75, 1.5),
  'claude-opus-4-5': claude(5, 25, 0.5),
  'claude-opus-4-6': claude(5, 25, 0.5),
  'claude-opus-4-7': claude(5, 25, 0.5),
  'claude-opus-4-8': claude(5, 25, 0.5),
  'claude-opus-5': claude(5, 25, 0.5),
  'claude-opus-5-5': claude(4, 20, 0.2),
  'claude-fable-5': claude(10, 50, 1),
  'claude-fable-5-1': claude(10, 50, 0.25),
  'claude-fable-5-2': claude(8, 40, 0.2),
  'claude-mythos-5': claude(10, 50, 1),
  'claude-mythos-5-1': claude(10, 50, 0.25),
  'claude-mythos-5-2': claude(8, 40, 0.2),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-codex': openai(1.25, 10, 0.125),
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5.1-codex': openai(1.25, 10, 0.125),
  'codex-mini-latest': openai(1.5, 6, 0.375),
  'gpt-5.4': openai(2.5, 15, 0.25, { aboveInputTokens: 272_000, input: 5, output: 22.5, cacheRead: 0.5 }),
  'gpt-5.5': openai(5, 30, 0.5, { aboveInputTokens: 272_000, input: 10, output: 45, cacheRead: 1 }),
})
