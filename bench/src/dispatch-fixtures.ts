import type { PreToolDecision, Session, ToolCallPayload } from '@harness-kernel/kernel'
import type { AsyncSeriesWaterfallHook } from 'tapable'

/** What the dispatch benchmarks share: the hook's shape, the taps, one payload. */
export type Hook = AsyncSeriesWaterfallHook<[PreToolDecision, ToolCallPayload]>
export type TapFn = (decision: PreToolDecision, payload: ToolCallPayload) => Promise<PreToolDecision>

/** `keep`: every tap resolves undefined (the value is kept); `allow`: every tap returns a fresh decision, so the kernel validates it. */
export type Mode = 'keep' | 'allow'

export const tapFn: Record<Mode, TapFn> = {
  keep: (async () => undefined) as unknown as TapFn,
  allow: async () => ({ kind: 'allow' }),
}

export const payload: ToolCallPayload = {
  session: {} as Session,
  turn: { id: 'turn-1', number: 1 },
  step: 1,
  signal: new AbortController().signal,
  call: { id: 'call_1', name: 'noop', input: {} },
}
