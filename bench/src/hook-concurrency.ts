import type { HookSetup } from './hook-occurrence.js'
import { type Call, type CallStats, fmt, perCall } from './measure.js'
import { rawParallel } from './raw-spawn.js'

/**
 * What the hook concurrency benchmarks of both dialects share: one PreToolUse occurrence with 1 or n matching handlers
 * (`sleep 0.2`, then `true`), next to 1 or n raw spawns of the same command started at once.
 */

/** n × `sleep 0.2` under this many times one. */
export const CONCURRENCY_TARGET = 1.5

/** The four dialect setups: 1 and n handlers of `sleep 0.2`, 1 and n of `true`. */
export interface ConcurrencySetups<S extends HookSetup> {
  sleepOne: S
  sleepMany: S
  trueOne: S
  trueMany: S
}

/** Makes the four setups in `<root>/sleep-1`, `sleep-<n>`, `true-1` and `true-<n>` (`make` keeps them for `closeSetups`). */
export async function concurrencySetups<S extends HookSetup>(
  n: number,
  make: (name: string, command: string, handlers: number) => Promise<S>,
): Promise<ConcurrencySetups<S>> {
  const sleepOne = await make('sleep-1', 'sleep 0.2', 1)
  const sleepMany = await make(`sleep-${n}`, 'sleep 0.2', n)
  const trueOne = await make('true-1', 'true', 1)
  const trueMany = await make(`true-${n}`, 'true', n)
  return { sleepOne, sleepMany, trueOne, trueMany }
}

interface Pair {
  label: string
  one: string
  many: string
}

const pairs = (n: number): Pair[] => [
  { label: 'dialect, handlers `sleep 0.2`', one: 'dialect sleep 1', many: `dialect sleep ${n}` },
  { label: 'raw spawns at once, `sleep 0.2`', one: 'raw sleep 1', many: `raw sleep ${n}` },
  { label: 'dialect, handlers `true`', one: 'dialect true 1', many: `dialect true ${n}` },
  { label: 'raw spawns at once, `true`', one: 'raw true 1', many: `raw true ${n}` },
]

export interface ConcurrencyRow {
  label: string
  one: CallStats
  many: CallStats
  ratio: number
}

/**
 * Times the four dialect occurrences and the raw spawns (`perCall`, all interleaved), checks that every setup ran one
 * `hook/run` per handler per round (`runs` counts a setup's records; `bench` names the benchmark in errors), and returns one
 * row per pair. `sleepMany` replaces the n-handler `sleep 0.2` call (to look at its runs after each).
 */
export async function timeConcurrency<S extends HookSetup>(
  bench: string,
  shell: string,
  n: number,
  setups: ConcurrencySetups<S>,
  runs: (setup: S) => number,
  options: { runs: number; warmup: number; sleepMany?: Call },
): Promise<{ rows: ConcurrencyRow[]; rounds: number }> {
  const { sleepOne, sleepMany, trueOne, trueMany } = setups
  const variants: Record<string, Call> = {
    'dialect sleep 1': sleepOne.occurrence,
    [`dialect sleep ${n}`]: options.sleepMany ?? sleepMany.occurrence,
    'raw sleep 1': rawParallel(shell, 'sleep 0.2', 1),
    [`raw sleep ${n}`]: rawParallel(shell, 'sleep 0.2', n),
    'dialect true 1': trueOne.occurrence,
    [`dialect true ${n}`]: trueMany.occurrence,
    'raw true 1': rawParallel(shell, 'true', 1),
    [`raw true ${n}`]: rawParallel(shell, 'true', n),
  }
  const stats = await perCall(variants, { warmup: options.warmup, samples: options.runs })
  const rounds = options.warmup + options.runs
  for (const [setup, handlers] of [
    [sleepOne, 1],
    [sleepMany, n],
    [trueOne, 1],
    [trueMany, n],
  ] as const) {
    if (runs(setup) !== rounds * handlers) throw new Error(`${bench}: ${runs(setup)} hook runs, expected ${rounds * handlers}`)
  }
  const rows = pairs(n).map((pair) => {
    const one = stats[pair.one]!
    const many = stats[pair.many]!
    return { label: pair.label, one, many, ratio: many.wallMs.median / one.wallMs.median }
  })
  return { rows, rounds }
}

/** The table's head and rows: 1 and n, their difference and ratio; the first (dialect, `sleep 0.2`) says whether it is under the target. */
export function concurrencyTable(rows: readonly ConcurrencyRow[], n: number): { head: string[]; rows: string[][] } {
  return {
    head: [
      'what runs',
      '1: ms (median)',
      '1: p99',
      `${n}: ms (median)`,
      `${n}: p99`,
      `${n} − 1: ms`,
      `${n} / 1`,
      `under ${CONCURRENCY_TARGET}×`,
    ],
    rows: rows.map((row, index) => [
      row.label,
      fmt(row.one.wallMs.median, 1),
      fmt(row.one.wallMs.p99, 1),
      fmt(row.many.wallMs.median, 1),
      fmt(row.many.wallMs.p99, 1),
      fmt(row.many.wallMs.median - row.one.wallMs.median, 1),
      `${fmt(row.ratio, 2)}×`,
      index === 0 ? (row.ratio < CONCURRENCY_TARGET ? 'yes' : 'no') : '',
    ]),
  }
}
