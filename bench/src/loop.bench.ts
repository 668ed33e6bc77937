import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, defineTool, type KernelOptions } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { z } from 'zod'
import { fmt, gc, now, type Stats, since, summarize } from './measure.js'
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

export interface LoopRun {
  fsync: Fsync
  steps: number
  status: string
  totalMs: number
  perStepUs: Stats
  /** Median µs/step over the first and the last 100 steps: does a step get slower as the transcript grows? */
  first100Us: number
  last100Us: number
  memory: MemorySample[]
  peakRss: number
  peakHeapUsed: number
  /** Least-squares slope of heapUsed after GC, steps 100 to the last: bytes per step. */
  heapPerStep: number
  logPerStep: number
  /** heapUsed after the session ended and the kernel was disposed, minus before the kernel was created (both after GC). */
  heapLeftAfterDispose: number
}

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  inputSchema: z.object({}),
  async execute() {
    return { output: 'ok', isError: false }
  },
})

function script(steps: number): ScriptStep[] {
  const calls: ScriptStep[] = Array.from({ length: steps - 1 }, () => ({ tool_calls: [{ name: 'noop', input: {} }] }))
  return [...calls, { text: 'done' }]
}

interface Probe {
  stepStart: Float64Array
  memory: MemorySample[]
  paused: number
  origin: bigint
  path: string
}

/** Times step boundaries from `step/start` events; every `every` steps samples memory (with a forced GC) and books that time as paused. */
function probePlugin(probe: Probe, steps: number, every: number) {
  const sampleMemory = (step: number) => {
    const start = now()
    const raw = process.memoryUsage()
    gc()
    const heapUsed = process.memoryUsage().heapUsed
    probe.memory.push({ step, rss: raw.rss, heapUsedRaw: raw.heapUsed, heapUsed, logBytes: statSync(probe.path).size })
    probe.paused += since(start)
  }
  const plugin = definePlugin({
    name: 'bench-probe',
    setup(kernel) {
      kernel.registerTool(noop)
      kernel.hooks.sessionEvent.tap('bench-probe', ({ event }) => {
        if (event.type === 'step/start') {
          probe.stepStart[event.step] = since(probe.origin) - probe.paused
          if (event.step === 1 || event.step === 100 || event.step % every === 0) sampleMemory(event.step)
        } else if (event.type === 'turn/end') probe.stepStart[steps + 1] = since(probe.origin) - probe.paused
      })
    },
  })
  return { plugin, sampleMemory }
}

/** Kernel, session and turn result live only in here, so that nothing of them is reachable afterwards. */
async function drive(fsync: Fsync, steps: number, every: number, dir: string, probe: Probe) {
  const { plugin, sampleMemory } = probePlugin(probe, steps, every)
  const model = scriptedModel({ script: script(steps), record: false })
  const kernel = createKernel([model, plugin], { cwd: dir, sessionsDir: join(dir, 'sessions'), fsync })
  try {
    const session = await kernel.startSession()
    probe.path = session.transcriptPath
    gc()
    probe.origin = now()
    const { status } = await session.run('go')
    const totalMs = (since(probe.origin) - probe.paused) / 1e6
    sampleMemory(steps + 1)
    await session.end()
    return { status, calls: model.model.calls, totalMs }
  } finally {
    await kernel.dispose()
  }
}

/** One `session.run()` of `steps` sampling steps, in a fresh kernel and temp dir. */
async function runOnce(fsync: Fsync, steps: number, every: number): Promise<LoopRun> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-loop-'))
  const probe: Probe = { stepStart: new Float64Array(steps + 2), memory: [], paused: 0, origin: now(), path: '' }
  try {
    gc()
    const heapBefore = process.memoryUsage().heapUsed
    const { status, calls, totalMs } = await drive(fsync, steps, every, dir, probe)
    gc()
    const heapLeftAfterDispose = process.memoryUsage().heapUsed - heapBefore
    const { stepStart, memory } = probe
    const perStep = Array.from({ length: steps }, (_, index) => (stepStart[index + 2]! - stepStart[index + 1]!) / 1e3)
    const steady = memory.filter((sample) => sample.step >= 100 && sample.step <= steps)
    return {
      fsync,
      steps: calls,
      status,
      totalMs,
      perStepUs: summarize(perStep),
      first100Us: summarize(perStep.slice(0, 100)).median,
      last100Us: summarize(perStep.slice(-100)).median,
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

export async function loopBench(options: { steps: number; runs: number; every: number }): Promise<Section> {
  const modes: Fsync[] = ['never', 'steering', 'always']
  await runOnce('never', 200, 100) // warmup: JIT, module loading
  const runs: LoopRun[] = []
  for (let round = 0; round < options.runs; round++)
    for (const fsync of modes) runs.push(await runOnce(fsync, options.steps, options.every))
  for (const run of runs) {
    if (run.status !== 'completed' || run.steps !== options.steps) throw new Error(`loop: run ended ${run.status} after ${run.steps} steps`)
  }
  // Per mode, the run with the median total time.
  const picked = modes.map((fsync) => {
    const mine = runs.filter((run) => run.fsync === fsync).sort((a, b) => a.totalMs - b.totalMs)
    return mine[mine.length >> 1]!
  })
  const at = (run: LoopRun, step: number) => run.memory.find((sample) => sample.step === step)!
  return {
    title: `(b) Loop: one ${fmt(options.steps)}-step \`session.run()\` (scripted model, no-op tool)`,
    head: [
      'fsync',
      'total ms',
      'µs/step median',
      'µs/step p99',
      'µs/step first → last 100',
      'peak RSS',
      `RSS @100 → @${options.steps}`,
      'peak heapUsed',
      `heapUsed after GC @100 → @${options.steps}`,
      'heap B/step',
      'log B/step',
      'heap / log',
      'heap left after dispose',
    ],
    rows: picked.map((run) => [
      run.fsync,
      fmt(run.totalMs),
      fmt(run.perStepUs.median),
      fmt(run.perStepUs.p99),
      `${fmt(run.first100Us)} → ${fmt(run.last100Us)}`,
      mb(run.peakRss),
      `${mb(at(run, 100).rss)} → ${mb(at(run, options.steps).rss)}`,
      mb(run.peakHeapUsed),
      `${mb(at(run, 100).heapUsed)} → ${mb(at(run, options.steps).heapUsed)}`,
      fmt(run.heapPerStep),
      fmt(run.logPerStep),
      `${fmt(run.heapPerStep / run.logPerStep, 2)}×`,
      `${fmt(run.heapLeftAfterDispose / 1024)} KB`,
    ]),
    notes: [
      `Median of ${options.runs} runs per mode (by total time). Per-step time is between consecutive \`step/start\` events ` +
        `(the last step ends at \`turn/end\`); memory is sampled every ${options.every} steps from a \`session/event\` tap, ` +
        'RSS and heapUsed before and heapUsed after a forced GC, and the sampling time is subtracted. RSS is the whole process (earlier benchmarks included). Heap and log growth per step are least-squares slopes over the samples from step 100 to the last step.',
    ],
    data: { options, runs },
  }
}
