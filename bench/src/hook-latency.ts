import { definePlugin, type Kernel, type Plugin, type SessionEvent } from '@harness-kernel/kernel'
import type { ScriptStep } from '@harness-kernel/scripted-model'
import { gc, now, type Stats, since, summarize } from './measure.js'

/**
 * What a hook adds to a turn, as the real-client benchmarks of both dialects measure it (`codex-real`, `claude-code-real`):
 * the with/without-hook schedule, the kernel's side of the same turn, and the statistics of the difference.
 */

/** The scripted model's side of the turn: `calls` shell calls of `true`, then a text answer. */
export const shellCallsScript = (calls: number): ScriptStep[] => [
  ...Array.from({ length: calls }, () => ({ tool_calls: [{ name: 'shell', input: { command: 'true' } }] })),
  { text: 'done' },
]

/**
 * One unrecorded run with and one without the hook first (`warmup-with`, `warmup-without`), then `reps` of each way, with and
 * without alternating, the order flipping every repetition (`<rep>-with`, `<rep>-without`); the recorded samples.
 */
export async function alternateRuns<T>(reps: number, run: (name: string, withHook: boolean) => Promise<T>): Promise<T[]> {
  await run('warmup-with', true)
  await run('warmup-without', false)
  const samples: T[] = []
  for (let rep = 0; rep < reps; rep++) {
    for (const withHook of rep % 2 === 0 ? [true, false] : [false, true]) {
      samples.push(await run(`${rep}-${withHook ? 'with' : 'without'}`, withHook))
    }
  }
  return samples
}

/**
 * One `session.run('run the tool')` on a kernel made with the probe plugin `makeKernel` is given; a GC first, then timed.
 * `onEvent` sees every session event, with `at()`: ms since the turn started. Ends the session, disposes the kernel, and
 * throws (`<bench>: the kernel turn ended …`) unless the turn completed; returns the turn's ms.
 */
export async function timedKernelTurn(
  bench: string,
  makeKernel: (probe: Plugin) => Kernel,
  onEvent: (event: SessionEvent, at: () => number) => void,
): Promise<number> {
  let origin = now()
  const at = () => since(origin) / 1e6
  const probe = definePlugin({
    name: 'bench-steps',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-steps', ({ event }) => onEvent(event, at))
    },
  })
  const kernel = makeKernel(probe)
  try {
    const session = await kernel.startSession()
    gc()
    origin = now()
    const result = await session.run('run the tool')
    const totalMs = since(origin) / 1e6
    await session.end()
    if (result.status !== 'completed') throw new Error(`${bench}: the kernel turn ended ${result.status}`)
    return totalMs
  } finally {
    await kernel.dispose()
  }
}

const median = (values: readonly number[]) => summarize(values).median

/**
 * 90% percentile-bootstrap interval of median(a) − median(b): how far the step-median difference can be trusted when
 * single steps vary by more than what a hook adds. Seeded, so a run's numbers can be recomputed from latest.json.
 */
export function medianDifferenceInterval(a: readonly number[], b: readonly number[], resamples = 2000): [number, number] {
  let seed = 0x9e3779b9
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const resample = (values: readonly number[]) => Array.from(values, () => values[Math.floor(random() * values.length)]!)
  const differences = Array.from({ length: resamples }, () => median(resample(a)) - median(resample(b))).sort((x, y) => x - y)
  return [differences[Math.floor(0.05 * resamples)]!, differences[Math.ceil(0.95 * resamples) - 1]!]
}

/** A run of the with/without schedule: with the hook or not, and its whole time. */
export interface HookRunSample {
  withHook: boolean
  totalMs: number
}

/** The samples of one client with and without the hook, and each way's total-time stats. */
export interface RunsByHook<T extends HookRunSample> {
  runs: { with: T[]; without: T[] }
  totalWith: Stats
  totalWithout: Stats
}

/** The samples with and without the hook, and each way's total-time stats (in this key order, for latest.json). */
export function runsByHook<T extends HookRunSample>(samples: readonly T[]): RunsByHook<T> {
  const withRuns = samples.filter((sample) => sample.withHook)
  const withoutRuns = samples.filter((sample) => !sample.withHook)
  return {
    runs: { with: withRuns, without: withoutRuns },
    totalWith: summarize(withRuns.map((sample) => sample.totalMs)),
    totalWithout: summarize(withoutRuns.map((sample) => sample.totalMs)),
  }
}
