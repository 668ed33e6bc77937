import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, defineTool, type KernelOptions } from '@harness-kernel/kernel'
import { type ScriptReplyStep, type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { z } from 'zod'
import { fmt, gc, now, runQueueWaitNs, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

type Fsync = NonNullable<KernelOptions['fsync']>

interface MemorySample {
  step: number
  /** Right before the forced GC: what the process really holds mid-run. */
  rss: number
  heapUsedRaw: number
  /** After a full GC: what is retained. */
  heapUsed: number
  logBytes: number
}

/** A timed run: step boundaries only, nothing else in the process between them. */
export interface LoopRun {
  fsync: Fsync
  steps: number
  status: string
  totalMs: number
  perStepUs: Stats
  /** Median µs/step over the first and the last 100 steps: does a step get slower as the transcript grows? */
  first100Us: number
  last100Us: number
  /** Time the main thread waited for a CPU during the run (other processes on the machine), µs per step; Linux only. */
  cpuWaitUs: number | undefined
}

/** A memory run: the same session, sampled every few steps with a forced GC (which would distort a timed run). */
export interface MemoryRun {
  fsync: Fsync
  steps: number
  status: string
  memory: MemorySample[]
  peakRss: number
  peakHeapUsed: number
  /** Least-squares slope of heapUsed after GC, steps 100 to the last: bytes per step. */
  heapPerStep: number
  logPerStep: number
  /** heapUsed after the session ended and the kernel was disposed, minus before the kernel was created (both after GC). */
  heapLeftAfterDispose: number
}

/** A tool that does nothing: a step's tool call with no work in it. */
export const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  inputSchema: z.object({}),
  async execute() {
    return { output: 'ok', isError: false }
  },
})

/** `steps` model steps: a `noop` call each, then a last answer; with `usage` on every step when given. */
export function noopSteps(steps: number, usage?: ScriptReplyStep['usage']): ScriptStep[] {
  const each = usage === undefined ? {} : { usage }
  const calls: ScriptStep[] = Array.from({ length: steps - 1 }, () => ({ tool_calls: [{ name: 'noop', input: {} }], ...each }))
  return [...calls, { text: 'done', ...each }]
}

interface Probe {
  stepStart: Float64Array
  memory: MemorySample[]
  /** Sample memory every this many steps (and at steps 1 and 100); 0 in a timed run. */
  every: number
  paused: number
  origin: bigint
  path: string
}

/**
 * Times step boundaries from `step/start` events; in a memory run, every `every` steps samples memory (with a forced
 * GC) and books that time as paused.
 */
function probePlugin(probe: Probe, steps: number) {
  const sampleMemory = (step: number) => {
    const start = now()
    const raw = process.memoryUsage()
    gc()
    const heapUsed = process.memoryUsage().heapUsed
    probe.memory.push({ step, rss: raw.rss, heapUsedRaw: raw.heapUsed, heapUsed, logBytes: statSync(probe.path).size })
    probe.paused += since(start)
  }
  const { every } = probe
  const plugin = definePlugin({
    name: 'bench-probe',
    setup(kernel) {
      kernel.registerTool(noop)
      kernel.hooks.sessionEvent.tap('bench-probe', ({ event }) => {
        if (event.type === 'step/start') {
          probe.stepStart[event.step] = since(probe.origin) - probe.paused
          if (every > 0 && (event.step === 1 || event.step === 100 || event.step % every === 0)) sampleMemory(event.step)
        } else if (event.type === 'turn/end') probe.stepStart[steps + 1] = since(probe.origin) - probe.paused
      })
    },
  })
  return { plugin, sampleMemory }
}

/** Kernel, session and turn result live only in here, so that nothing of them is reachable afterwards. */
async function drive(fsync: Fsync, steps: number, dir: string, probe: Probe) {
  const { plugin, sampleMemory } = probePlugin(probe, steps)
  const model = scriptedModel({ script: noopSteps(steps), record: false })
  const kernel = createKernel([model, plugin], { cwd: dir, sessionsDir: join(dir, 'sessions'), fsync })
  try {
    const session = await kernel.startSession()
    probe.path = session.transcriptPath
    gc()
    const waitedBefore = runQueueWaitNs()
    probe.origin = now()
    const { status } = await session.run('go')
    const totalMs = (since(probe.origin) - probe.paused) / 1e6
    const waitedAfter = runQueueWaitNs()
    const waitedNs = waitedBefore === undefined || waitedAfter === undefined ? undefined : waitedAfter - waitedBefore
    if (probe.every > 0) sampleMemory(steps + 1)
    await session.end()
    return { status, calls: model.model.calls, totalMs, waitedNs }
  } finally {
    await kernel.dispose()
  }
}

const newProbe = (steps: number, every: number): Probe => ({
  stepStart: new Float64Array(steps + 2),
  memory: [],
  every,
  paused: 0,
  origin: now(),
  path: '',
})

/** One timed `session.run()` of `steps` sampling steps, in a fresh kernel and temp dir. */
async function timedRun(fsync: Fsync, steps: number): Promise<LoopRun> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-loop-'))
  const probe = newProbe(steps, 0)
  try {
    gc()
    const { status, calls, totalMs, waitedNs } = await drive(fsync, steps, dir, probe)
    const { stepStart } = probe
    const perStep = Array.from({ length: steps }, (_, index) => (stepStart[index + 2]! - stepStart[index + 1]!) / 1e3)
    return {
      fsync,
      steps: calls,
      status,
      totalMs,
      perStepUs: summarize(perStep),
      first100Us: summarize(perStep.slice(0, 100)).median,
      last100Us: summarize(perStep.slice(-100)).median,
      cpuWaitUs: waitedNs === undefined ? undefined : waitedNs / 1e3 / steps,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The same run sampled for memory every `every` steps. */
async function memoryRun(fsync: Fsync, steps: number, every: number): Promise<MemoryRun> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-loop-'))
  const probe = newProbe(steps, every)
  try {
    gc()
    const heapBefore = process.memoryUsage().heapUsed
    const { status, calls } = await drive(fsync, steps, dir, probe)
    gc()
    const heapLeftAfterDispose = process.memoryUsage().heapUsed - heapBefore
    const { memory } = probe
    const steady = memory.filter((sample) => sample.step >= 100 && sample.step <= steps)
    return {
      fsync,
      steps: calls,
      status,
      memory,
      peakRss: Math.max(...memory.map((sample) => sample.rss)),
      peakHeapUsed: Math.max(...memory.map((sample) => sample.heapUsedRaw)),
      heapPerStep: slope(steady.map((sample) => [sample.step, sample.heapUsed])),
      logPerStep: slope(steady.map((sample) => [sample.step, sample.logBytes])),
      heapLeftAfterDispose,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Least-squares slope of y over x: growth per step, robust to one odd sample. */
function slope(points: [number, number][]): number {
  const n = points.length
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n
  const cov = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0)
  const vx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0)
  return cov / vx
}

const mb = (bytes: number) => `${fmt(bytes / 2 ** 20, 1)} MB`

/** Timed runs per mode and round: those of the cheap modes are many, since a median of more runs is steadier on a shared machine. */
const TIMED_PER_ROUND: Record<Fsync, number> = { never: 3, steering: 3, always: 1 }

export async function loopBench(options: { steps: number; runs: number; every: number }): Promise<Section> {
  const modes: Fsync[] = ['never', 'steering', 'always']
  // Warmup (JIT, module loading): one run of full length; after 200 steps alone, the first timed run was ~4× slower.
  await timedRun('never', options.steps)
  const runs: LoopRun[] = []
  const memoryRuns: MemoryRun[] = []
  for (let round = 0; round < options.runs; round++) {
    for (const fsync of modes) for (let timed = 0; timed < TIMED_PER_ROUND[fsync]; timed++) runs.push(await timedRun(fsync, options.steps))
  }
  // Memory runs last, so that no timed run comes right after their forced GCs.
  for (let round = 0; round < options.runs; round++) {
    for (const fsync of modes) memoryRuns.push(await memoryRun(fsync, options.steps, options.every))
  }
  for (const run of [...runs, ...memoryRuns]) {
    if (run.status !== 'completed' || run.steps !== options.steps) throw new Error(`loop: run ended ${run.status} after ${run.steps} steps`)
  }
  // Per mode, the timed run with the median µs/step (a total is swayed by a few long pauses), and the memory run with
  // the median heap growth.
  const median = <T>(list: T[], by: (item: T) => number) => [...list].sort((a, b) => by(a) - by(b))[list.length >> 1]!
  const picked = modes.map((fsync) => ({
    run: median(
      runs.filter((run) => run.fsync === fsync),
      (run) => run.perStepUs.median,
    ),
    memory: median(
      memoryRuns.filter((run) => run.fsync === fsync),
      (run) => run.heapPerStep,
    ),
  }))
  const at = (run: MemoryRun, step: number) => run.memory.find((sample) => sample.step === step)!
  const waited = (run: LoopRun) => (run.cpuWaitUs === undefined ? '' : fmt(run.cpuWaitUs, 1))
  return {
    title: `(b) Loop: one ${fmt(options.steps)}-step \`session.run()\` (scripted model, no-op tool)`,
    head: [
      'fsync',
      'total ms',
      'µs/step median',
      'µs/step p99',
      'µs/step first → last 100',
      'waiting for a CPU, µs/step',
      'peak RSS',
      `RSS @100 → @${options.steps}`,
      'peak heapUsed',
      `heapUsed after GC @100 → @${options.steps}`,
      'heap B/step',
      'log B/step',
      'heap / log',
      'heap left after dispose',
    ],
    rows: picked.map(({ run, memory }) => [
      run.fsync,
      fmt(run.totalMs),
      fmt(run.perStepUs.median),
      fmt(run.perStepUs.p99),
      `${fmt(run.first100Us)} → ${fmt(run.last100Us)}`,
      waited(run),
      mb(memory.peakRss),
      `${mb(at(memory, 100).rss)} → ${mb(at(memory, options.steps).rss)}`,
      mb(memory.peakHeapUsed),
      `${mb(at(memory, 100).heapUsed)} → ${mb(at(memory, options.steps).heapUsed)}`,
      fmt(memory.heapPerStep),
      fmt(memory.logPerStep),
      `${fmt(memory.heapPerStep / memory.logPerStep, 2)}×`,
      `${fmt(memory.heapLeftAfterDispose / 1024)} KB`,
    ]),
    notes: [
      `Per mode, the median (by µs/step median) of ${options.runs * TIMED_PER_ROUND.never} timed runs (${options.runs * TIMED_PER_ROUND.always} with \`always\`). ` +
        'Per-step time is between consecutive `step/start` events ' +
        '(the last step ends at `turn/end`). "Waiting for a CPU" is the time the main thread was runnable but not running ' +
        '(Linux schedstat) over the timed run, per step: what other processes on the machine took. After all timed runs come ' +
        `${options.runs} memory runs per mode of the same session (the median by heap growth is shown): memory sampled every ` +
        `${options.every} steps from a \`session/event\` tap, RSS and heapUsed before and heapUsed after a forced GC (forced ` +
        'GCs inside a timed run would slow its later steps). RSS is the whole process (earlier benchmarks included). Heap and ' +
        'log growth per step are least-squares slopes over the samples from step 100 to the last step.',
    ],
    data: { options, runs, memoryRuns },
  }
}
