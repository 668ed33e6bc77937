import { statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { runHookCommands } from '@harness-kernel/hook-protocol'
import { ExecProcessRunner, LauncherProcessRunner, type Plugin, type ProcessRunner, type ProcessRunOptions } from '@harness-kernel/kernel'
import { type HookSetup, logProbe } from './hook-occurrence.js'
import { InstantRunner } from './instant-runner.js'
import { type Call, type CallStats, fmt, gc, perCall } from './measure.js'
import { rawSpawn, rawSpawnLikeRunner } from './raw-spawn.js'

/**
 * What the hook overhead benchmarks of both dialects share: one trivial PreToolUse handler (`true`) through the dialect,
 * next to the runner and raw spawns of the same process, each timed as single cold calls (`perCall`, a full GC before
 * each round).
 */

/** The dialect within this many times the raw spawn. */
export const OVERHEAD_TARGET = 1.2
export const DIALECT_ROW = 'dialect: PreToolUse occurrence (launcher, the default)'
export const IN_PROCESS_DIALECT_ROW = 'dialect, in-process runner'
export const INSTANT_ROW = 'dialect, no process (instant runner)'
export const RUNNER_ROW = 'LauncherProcessRunner.run (cold: nothing prestarted)'
export const IN_PROCESS_RUNNER_ROW = 'ExecProcessRunner.run (cold)'
/**
 * The untimed pause after each call: a model's time between tool calls, in which a hook's next shell is started (a
 * shell started during the next row's call would be that row's cost, a raw spawn's too).
 */
const PAUSE_MS = 25
/** How much more the kernel's process holds in the heavy phase: a V8 heap of that many MB more. */
export const EXTRA_HEAP_MB = 200

/** A kernel with the dialect and its one PreToolUse handler `true`, in `dir`, started (`preToolUseSetup`). */
export type MakeSetup = (dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]) => Promise<HookSetup>

export interface OverheadSetups {
  /** Runs the real handler through the kernel's default runner (the process launcher), with the log probe. */
  measured: HookSetup
  /** Runs the real handler through `ExecProcessRunner`, in the kernel's process. */
  inProcess: HookSetup
  /** Runs no process (`instant`). */
  withoutProcess: HookSetup
  instant: InstantRunner
  probe: ReturnType<typeof logProbe>
}

/**
 * The measured setup (`<root>/dialect`, with a log probe), the in-process one (`<root>/in-process`) and the instant-runner
 * one (`<root>/instant`), each pushed onto `setups` as soon as it exists (for `closeSetups`); one occurrence run without a
 * process, so that `instant.last` holds the exact options the dialect hands its runner.
 */
export async function overheadSetups(make: MakeSetup, root: string, setups: HookSetup[]): Promise<OverheadSetups> {
  const probe = logProbe()
  const keep = (setup: HookSetup) => {
    setups.push(setup)
    return setup
  }
  const measured = keep(await make(join(root, 'dialect'), undefined, [probe.plugin]))
  const inProcess = keep(await make(join(root, 'in-process'), new ExecProcessRunner()))
  const instant = new InstantRunner()
  const withoutProcess = keep(await make(join(root, 'instant'), instant))
  await withoutProcess.occurrence()
  return { measured, inProcess, withoutProcess, instant, probe }
}

/** The label of the raw spawn row, the base of every ratio: ``raw `spawn(bash, [-c, true])` ``. */
const rawSpawnRow = (shell: string) => `raw \`spawn(${basename(shell)}, [-c, true])\``

/**
 * The rows the dialect's are measured against, all running `true` with `options` (shell, cwd, env, stdin, timeout): a raw
 * spawn, one doing what the runner does, the in-process runner with and without its pipe grace, the launcher runner (the
 * kernel's default, through the process's shared launcher, as the dialect row), and `runHookCommands` over it.
 */
function runnerVariants(shell: string, options: ProcessRunOptions & { stdin: string }): Record<string, Call> {
  const inProcess = new ExecProcessRunner()
  const inProcessNoGrace = new ExecProcessRunner({ pipeGraceMs: 0 })
  const runner = new LauncherProcessRunner()
  const { cwd, stdin } = options
  // The runner rows start their process cold, as a first run does: no shell prestarted for them.
  const cold = { ...options, prestart: false }
  return {
    [rawSpawnRow(shell)]: rawSpawn(shell),
    "raw spawn, runner's options": rawSpawnLikeRunner(shell, { cwd, env: options.env, stdin }),
    [IN_PROCESS_RUNNER_ROW]: () => inProcess.run(cold),
    'ExecProcessRunner.run (cold), pipeGraceMs 0': () => inProcessNoGrace.run(cold),
    [RUNNER_ROW]: () => runner.run(cold),
    'runHookCommands(launcher runner, [spec])': () =>
      runHookCommands(runner, [
        {
          command: 'true',
          shell,
          cwd,
          stdin,
          timeoutMs: options.timeoutMs ?? 600_000,
          // A command line of its own: hooks' shells are prestarted per command line, and the dialect row's must not
          // be taken by this row's runs (the two share the launcher).
          env: { ...options.env, HK_BENCH_ROW: 'runHookCommands' },
        },
      ]),
  }
}

export interface OverheadRow {
  variant: string
  stats: CallStats
  ratio: number
}

export interface OverheadTimes {
  /** Every variant with its ratio to the raw spawn's median. */
  rows: OverheadRow[]
  /** The same again for the variants of `HEAVY_ROWS`, with `EXTRA_HEAP_MB` more heap; ratios to this phase's raw spawn. */
  heavyRows: OverheadRow[]
  /** This process's resident memory in each phase, bytes. */
  rss: { base: number; heavy: number }
  /** Warmup and recorded occurrences of the measured setup. */
  occurrences: number
  /** Session-log bytes per occurrence of the measured setup. */
  logBytes: number
  /** Session-log events per occurrence of the measured setup, by type. */
  logEvents: Record<string, number>
}

/**
 * Times the runner variants (`runnerVariants(shell, runOptions)`) and the two dialect rows (`perCall`, a full GC before each
 * round) and what the measured setup wrote to its session log per occurrence meanwhile; then checks that every setup's
 * occurrence still allows (`bench` names the benchmark in errors).
 */
export async function timeOverhead(
  bench: string,
  shell: string,
  { measured, inProcess, withoutProcess, probe }: OverheadSetups,
  setups: readonly HookSetup[],
  runOptions: ProcessRunOptions & { stdin: string },
  options: { calls: number; warmup: number },
): Promise<OverheadTimes> {
  const variants: Record<string, Call> = {
    ...runnerVariants(shell, runOptions),
    [DIALECT_ROW]: measured.occurrence,
    [IN_PROCESS_DIALECT_ROW]: inProcess.occurrence,
    [INSTANT_ROW]: withoutProcess.occurrence,
  }
  const logBefore = statSync(measured.session.transcriptPath).size
  probe.counts.clear()
  const stats = await perCall(variants, { warmup: options.warmup, samples: options.calls, gc: 'round', pauseMs: PAUSE_MS })
  const occurrences = options.warmup + options.calls
  const logBytes = (statSync(measured.session.transcriptPath).size - logBefore) / occurrences
  const logEvents = Object.fromEntries([...probe.counts].map(([type, count]) => [type, count / occurrences]))
  const baseRss = process.memoryUsage().rss
  const heavy = await withExtraHeap(EXTRA_HEAP_MB, async () => ({
    rss: process.memoryUsage().rss,
    stats: await perCall(Object.fromEntries(heavyRows(shell).map((row) => [row, variants[row]!])), {
      warmup: options.warmup,
      samples: options.calls,
      gc: 'round',
      pauseMs: PAUSE_MS,
    }),
  }))
  for (const setup of setups) {
    const result = await setup.occurrence()
    if ((result as { kind?: string }).kind !== 'allow') throw new Error(`${bench}: the occurrence returned ${JSON.stringify(result)}`)
  }
  return {
    rows: ratioRows(stats, rawSpawnRow(shell)),
    heavyRows: ratioRows(heavy.stats, rawSpawnRow(shell)),
    rss: { base: baseRss, heavy: heavy.rss },
    occurrences,
    logBytes,
    logEvents,
  }
}

/** The variants timed again with more heap: the raw spawn, both runners, the dialect over each. */
const heavyRows = (shell: string) => [rawSpawnRow(shell), IN_PROCESS_RUNNER_ROW, RUNNER_ROW, DIALECT_ROW, IN_PROCESS_DIALECT_ROW]

function ratioRows(stats: Record<string, CallStats>, baseRow: string): OverheadRow[] {
  const base = stats[baseRow]!.wallMs.median
  return Object.entries(stats).map(([variant, s]) => ({ variant, stats: s, ratio: s.wallMs.median / base }))
}

/**
 * Runs `work` while this process holds `mb` MB more of V8 heap (arrays of unboxed doubles, written, so resident): the
 * kernel as a long session or a large plugin leaves it.
 */
async function withExtraHeap<T>(mb: number, work: () => Promise<T>): Promise<T> {
  const ballast = Array.from({ length: mb }, (_, index) => new Array<number>(2 ** 17).fill(index + 0.5))
  try {
    return await work()
  } finally {
    ballast.length = 0
    gc()
  }
}

export const rowOf = (rows: readonly OverheadRow[], variant: string): OverheadRow => rows.find((row) => row.variant === variant)!

/** The table's head and rows: median, p99, CPU, ratio; the dialect row says whether it is within the target. */
export function overheadTable({ rows, heavyRows }: OverheadTimes): { head: string[]; rows: string[][] } {
  const dialectRow = rowOf(rows, DIALECT_ROW)
  return {
    head: ['variant', 'ms/call (median)', 'p99', 'CPU ms/call (median)', 'vs raw spawn', `within ${OVERHEAD_TARGET}×`],
    rows: [
      ...rows.map((row) => tableRow(row, row === dialectRow)),
      ...heavyRows.map((row) => tableRow({ ...row, variant: `${row.variant}, +${EXTRA_HEAP_MB} MB heap` }, row.variant === DIALECT_ROW)),
    ],
  }
}

function tableRow(row: OverheadRow, judged: boolean): string[] {
  return [
    row.variant,
    fmt(row.stats.wallMs.median, 2),
    fmt(row.stats.wallMs.p99, 2),
    fmt(row.stats.cpuMs.median, 2),
    `${fmt(row.ratio, 2)}×`,
    judged ? (row.ratio <= OVERHEAD_TARGET ? 'yes' : 'no') : '',
  ]
}

/** The report note on the heavy phase: what more heap does to each row, the raw spawn's growth against the rest. */
export function heavyHeapNote({ rows, heavyRows, rss }: OverheadTimes): string {
  const growth = heavyRows.map((heavy) => {
    const base = rowOf(rows, heavy.variant)
    return `${heavy.variant} ${fmt(base.stats.wallMs.median, 2)} → ${fmt(heavy.stats.wallMs.median, 2)} ms`
  })
  return (
    `The rows marked +${EXTRA_HEAP_MB} MB heap were timed after the first ones, as they were but with this process (the kernel's) ` +
    `holding ${EXTRA_HEAP_MB} MB more of V8 heap (RSS ${fmt(rss.base / 2 ** 20)} → ${fmt(rss.heavy / 2 ** 20)} MB); their ratios are ` +
    `to that phase's raw spawn, which forks the heavier process. Median ms, without → with: ${growth.join('; ')}. CPU is this process's ` +
    "alone: the launcher's own is not in it."
  )
}

/** How the table was measured, up to what the dialect rows call: the start of both benchmarks' first note. */
export function overheadMethod(options: { calls: number; warmup: number }): string {
  return (
    `${options.calls} calls per variant after ${options.warmup} warmup rounds, one call of each variant per round in a rotating order, ` +
    `a full GC before each round, ${PAUSE_MS} ms (untimed) after each call, as a model's time between tool calls. The runner ` +
    'rows start their process cold (`prestart: false`); the dialect rows and `runHookCommands` find their shell prestarted ' +
    "(docs/decisions.md, 58), started in that pause, 5 ms after the runner's last run. The dialect rows are " +
    '`kernel.hooks.toolPreExecute.promise({ kind: "allow" }, payload)` '
  )
}

/** The report note on what one occurrence wrote to the session log. */
export function sessionLogNote({ logEvents, logBytes }: OverheadTimes): string {
  return (
    `Per occurrence the dialect wrote ${Object.entries(logEvents)
      .map(([type, count]) => `${fmt(count, 2)} \`${type}\``)
      .join(', ')} event(s) to the session log, ${fmt(logBytes)} B${'notice' in logEvents ? '' : ' (no `notice`)'}, not fsynced ` +
    '(`fsync: "steering"`, the default).'
  )
}
