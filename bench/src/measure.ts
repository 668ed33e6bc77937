import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export interface Stats {
  n: number
  median: number
  p99: number
  min: number
  max: number
}

/** Median (mean of the two middles for even n) and nearest-rank p99 of the values. */
export function summarize(values: readonly number[]): Stats {
  if (values.length === 0) throw new Error('summarize: no values')
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const mid = n >> 1
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  const p99 = sorted[Math.min(n - 1, Math.ceil(0.99 * n) - 1)]!
  return { n, median, p99, min: sorted[0]!, max: sorted[n - 1]! }
}

export const now = (): bigint => process.hrtime.bigint()

/** Nanoseconds since `start`, as a number. */
export const since = (start: bigint): number => Number(process.hrtime.bigint() - start)

/** One sample's work: runs `ops` operations. */
export type Task = (ops: number) => Promise<unknown> | unknown

export interface SampleOptions {
  /** Unrecorded samples per variant first (JIT warmup). */
  warmup: number
  /** Recorded samples per variant. */
  samples: number
  /** Operations per sample; stats are in ns per operation. */
  ops: number
}

/**
 * Samples each variant `warmup + samples` times, round-robin with a rotating order, so that drift on
 * a shared machine (other load, CPU frequency, GC of earlier variants) hits every variant alike and
 * ratios between variants measured in the same run stay meaningful. Returns ns/op per variant.
 */
export async function compare(variants: Record<string, Task>, options: SampleOptions): Promise<Record<string, Stats>> {
  const names = Object.keys(variants)
  const recorded: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < options.warmup + options.samples; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      gc()
      const start = now()
      await variants[name]!(options.ops)
      const perOp = since(start) / options.ops
      if (round >= options.warmup) recorded[name]!.push(perOp)
    }
  }
  return Object.fromEntries(names.map((name) => [name, summarize(recorded[name]!)]))
}

let collect: (() => void) | undefined

/** A full GC when it can be had (it can: `--expose-gc` is switched on at run time), else nothing. */
export function gc(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  collect()
}

export const fmt = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

/** One call, timed on its own (a hook occurrence, a spawn). */
export type Call = () => Promise<unknown> | unknown

export interface CallStats {
  /** Wall time per call, ms. */
  wallMs: Stats
  /** This process's CPU time per call (user + system, all its threads: main, libuv pool, GC helpers), ms. */
  cpuMs: Stats
}

export interface PerCallOptions {
  /** Unrecorded rounds first. */
  warmup: number
  /** Recorded rounds: calls per variant. */
  samples: number
  /**
   * A full GC before each `call` (default; a collection never lands inside a timed call), or once before each `round`
   * (a full GC costs ~25 ms here: too much next to calls of a few ms; young-generation GCs then hit every variant alike),
   * or `never` (a full GC flushes compiled code and inline caches: the call after it runs cold, which for JS-heavy calls
   * such as a PostgreSQL commit through `pg` made it 2–5× slower).
   */
  gc?: 'call' | 'round' | 'never'
  /** An untimed pause after each call, ms (default none). */
  pauseMs?: number
}

/**
 * Times single calls: every round calls each variant once, in a rotating order, and `warmup` rounds are not
 * recorded. For work of milliseconds, where the distribution of single calls matters (median and p99).
 */
export async function perCall(variants: Record<string, Call>, options: PerCallOptions): Promise<Record<string, CallStats>> {
  const names = Object.keys(variants)
  const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < options.warmup + options.samples; round++) {
    if (options.gc === 'round') gc()
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      if ((options.gc ?? 'call') === 'call') gc()
      const cpuStart = process.cpuUsage()
      const start = now()
      await variants[name]!()
      const ns = since(start)
      const used = process.cpuUsage(cpuStart)
      if (options.pauseMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.pauseMs))
      if (round < options.warmup) continue
      wall[name]!.push(ns / 1e6)
      cpu[name]!.push((used.user + used.system) / 1e3)
    }
  }
  return Object.fromEntries(names.map((name) => [name, { wallMs: summarize(wall[name]!), cpuMs: summarize(cpu[name]!) }]))
}

/**
 * Nanoseconds this process's main thread has spent runnable but waiting for a CPU (the second field of Linux's
 * `/proc/self/task/<pid>/schedstat`); undefined where that is not available. Read before and after a timed run, it
 * says how much of the run's wall time went to other processes on a shared machine.
 */
export function runQueueWaitNs(): number | undefined {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')
    const waited = Number(fields[1])
    return Number.isFinite(waited) ? waited : undefined
  } catch {
    return undefined
  }
}
