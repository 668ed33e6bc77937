import { statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { runHookCommands } from '@harness-kernel/hook-protocol'
import { ExecProcessRunner, type Plugin, type ProcessRunner, type ProcessRunOptions } from '@harness-kernel/kernel'
import { type HookSetup, logProbe } from './hook-occurrence.js'
import { InstantRunner } from './instant-runner.js'
import { type Call, type CallStats, fmt, perCall } from './measure.js'
import { rawSpawn, rawSpawnLikeRunner } from './raw-spawn.js'

/**
 * What the hook overhead benchmarks of both dialects share: one trivial PreToolUse handler (`true`) through the dialect,
 * next to the runner and raw spawns of the same process, each timed as single cold calls (`perCall`, a full GC before
 * each round).
 */

/** The dialect within this many times the raw spawn. */
export const OVERHEAD_TARGET = 1.2
export const DIALECT_ROW = 'dialect: PreToolUse occurrence'
export const INSTANT_ROW = 'dialect, no process (instant runner)'
export const RUNNER_ROW = 'ExecProcessRunner.run'

/** A kernel with the dialect and its one PreToolUse handler `true`, in `dir`, started (`preToolUseSetup`). */
export type MakeSetup = (dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]) => Promise<HookSetup>

export interface OverheadSetups {
  /** Runs the real handler, with the log probe. */
  measured: HookSetup
  /** Runs no process (`instant`). */
  withoutProcess: HookSetup
  instant: InstantRunner
  probe: ReturnType<typeof logProbe>
}

/**
 * The measured setup (`<root>/dialect`, with a log probe) and the instant-runner one (`<root>/instant`), each pushed onto
 * `setups` as soon as it exists (for `closeSetups`); one occurrence run without a process, so that `instant.last` holds the
 * exact options the dialect hands its runner.
 */
export async function overheadSetups(make: MakeSetup, root: string, setups: HookSetup[]): Promise<OverheadSetups> {
  const probe = logProbe()
  const keep = (setup: HookSetup) => {
    setups.push(setup)
    return setup
  }
  const measured = keep(await make(join(root, 'dialect'), undefined, [probe.plugin]))
  const instant = new InstantRunner()
  const withoutProcess = keep(await make(join(root, 'instant'), instant))
  await withoutProcess.occurrence()
  return { measured, withoutProcess, instant, probe }
}

/** The label of the raw spawn row, the base of every ratio: ``raw `spawn(bash, [-c, true])` ``. */
const rawSpawnRow = (shell: string) => `raw \`spawn(${basename(shell)}, [-c, true])\``

/**
 * The rows the dialect's are measured against, all running `true` with `options` (shell, cwd, env, stdin, timeout): a raw
 * spawn, one doing what the runner does, the runner with and without its pipe grace, and `runHookCommands` over it.
 */
function runnerVariants(shell: string, options: ProcessRunOptions & { stdin: string }): Record<string, Call> {
  const runner = new ExecProcessRunner()
  const runnerNoGrace = new ExecProcessRunner({ pipeGraceMs: 0 })
  const { cwd, stdin } = options
  return {
    [rawSpawnRow(shell)]: rawSpawn(shell),
    "raw spawn, runner's options": rawSpawnLikeRunner(shell, { cwd, env: options.env, stdin }),
    [RUNNER_ROW]: () => runner.run(options),
    'ExecProcessRunner.run, pipeGraceMs 0': () => runnerNoGrace.run(options),
    'runHookCommands(runner, [spec])': () =>
      runHookCommands(runner, [
        {
          command: 'true',
          shell,
          cwd,
          stdin,
          timeoutMs: options.timeoutMs ?? 600_000,
          ...(options.env ? { env: options.env } : {}),
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
  { measured, withoutProcess, probe }: OverheadSetups,
  setups: readonly HookSetup[],
  runOptions: ProcessRunOptions & { stdin: string },
  options: { calls: number; warmup: number },
): Promise<OverheadTimes> {
  const variants: Record<string, Call> = {
    ...runnerVariants(shell, runOptions),
    [DIALECT_ROW]: measured.occurrence,
    [INSTANT_ROW]: withoutProcess.occurrence,
  }
  const logBefore = statSync(measured.session.transcriptPath).size
  probe.counts.clear()
  const stats = await perCall(variants, { warmup: options.warmup, samples: options.calls, gc: 'round' })
  const occurrences = options.warmup + options.calls
  const logBytes = (statSync(measured.session.transcriptPath).size - logBefore) / occurrences
  const logEvents = Object.fromEntries([...probe.counts].map(([type, count]) => [type, count / occurrences]))
  for (const setup of setups) {
    const result = await setup.occurrence()
    if ((result as { kind?: string }).kind !== 'allow') throw new Error(`${bench}: the occurrence returned ${JSON.stringify(result)}`)
  }
  const base = stats[rawSpawnRow(shell)]!.wallMs.median
  const rows = Object.entries(stats).map(([variant, s]) => ({ variant, stats: s, ratio: s.wallMs.median / base }))
  return { rows, occurrences, logBytes, logEvents }
}

export const rowOf = (rows: readonly OverheadRow[], variant: string): OverheadRow => rows.find((row) => row.variant === variant)!

/** The table's head and rows: median, p99, CPU, ratio; the dialect row says whether it is within the target. */
export function overheadTable(rows: readonly OverheadRow[]): { head: string[]; rows: string[][] } {
  const dialectRow = rowOf(rows, DIALECT_ROW)
  return {
    head: ['variant', 'ms/call (median)', 'p99', 'CPU ms/call (median)', 'vs raw spawn', `within ${OVERHEAD_TARGET}×`],
    rows: rows.map((row) => [
      row.variant,
      fmt(row.stats.wallMs.median, 2),
      fmt(row.stats.wallMs.p99, 2),
      fmt(row.stats.cpuMs.median, 2),
      `${fmt(row.ratio, 2)}×`,
      row === dialectRow ? (row.ratio <= OVERHEAD_TARGET ? 'yes' : 'no') : '',
    ]),
  }
}

/** How the table was measured, up to what the dialect rows call: the start of both benchmarks' first note. */
export function overheadMethod(options: { calls: number; warmup: number }): string {
  return (
    `${options.calls} calls per variant after ${options.warmup} warmup rounds, one call of each variant per round in a rotating order, ` +
    'a full GC before each round. The dialect rows are `kernel.hooks.toolPreExecute.promise({ kind: "allow" }, payload)` '
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
