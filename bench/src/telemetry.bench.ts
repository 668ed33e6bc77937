import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { createKernel, definePlugin, type Plugin } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { type TelemetryPlugin, telemetry } from '@harness-kernel/telemetry'
import { noop, noopSteps } from './loop.bench.js'
import { fmt, gc, now, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

type Mode = 'off' | 'on' | 'on, content captured'

interface TelemetryRun {
  mode: Mode
  perStepUs: Stats
  /**
   * The process's CPU time (user + system, every thread) per step, by the slope between runs of `steps` and twice as
   * many: what a run pays once (the export thread's start, the SDK's load, the last export at dispose) cancels out.
   */
  cpuPerStepUs: number
  spansSent: number
  /** Spans the export queue could not take, per run of twice the steps (median): a burst faster than the export. */
  spansDroppedLonger: number
}

/**
 * A collector in a process of its own (as a real one is): answers every OTLP/HTTP export at once and counts the bytes,
 * so the bench process pays what it pays with a collector elsewhere, and nothing of the collector's own work.
 */
const SINK = `
const { createServer } = require('node:http')
let requests = 0
const server = createServer((request, response) => {
  request.on('data', () => {})
  request.on('end', () => { requests++; response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end() })
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.stdin.on('data', () => console.log(requests))
`

async function startSink(): Promise<{ url: string; child: ChildProcess; requests(): Promise<number> }> {
  const child = spawn(process.execPath, ['-e', SINK], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const port = (await lines.next()).value as string
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async requests() {
      child.stdin!.write('\n')
      return Number((await lines.next()).value)
    },
  }
}

/** Every step as a real model's would be: a tool call, with token counts (the kernel prices them when it knows the model). */
const USAGE = { inputTokens: 1200, outputTokens: 40 }

async function timedRun(mode: Mode, steps: number, sinkUrl: string): Promise<{ perStep: number[]; cpuUs: number; dropped: number }> {
  // CPU from the kernel's start: the export thread starts with the kernel and loads the SDK while the turn runs.
  const cpu = process.cpuUsage()
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-telemetry-'))
  const stepStart = new Float64Array(steps + 2)
  let origin = now()
  const probe = definePlugin({
    name: 'bench-probe',
    setup(kernel) {
      kernel.registerTool(noop)
      kernel.hooks.sessionEvent.tap('bench-probe', ({ event }) => {
        if (event.type === 'step/start') stepStart[event.step] = since(origin)
        else if (event.type === 'turn/end') stepStart[steps + 1] = since(origin)
      })
    },
  })
  const plugins: Plugin[] = [scriptedModel({ script: noopSteps(steps, USAGE), record: false }), probe]
  let exporting: TelemetryPlugin | undefined
  if (mode !== 'off') {
    const env: Record<string, string> = { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }
    if (mode === 'on, content captured') env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true'
    exporting = telemetry({ env })
    plugins.push(exporting)
  }
  const kernel = createKernel(plugins, { cwd: dir, sessionsDir: join(dir, 'sessions'), fsync: 'never' })
  try {
    await kernel.ready
    gc()
    const session = await kernel.startSession()
    origin = now()
    const { status } = await session.run('go')
    if (status !== 'completed') throw new Error(`telemetry bench: the run ended ${status}`)
    await session.end()
    await kernel.dispose()
    const used = process.cpuUsage(cpu)
    const perStep = Array.from({ length: steps }, (_, index) => (stepStart[index + 2]! - stepStart[index + 1]!) / 1e3)
    return { perStep, cpuUs: used.user + used.system, dropped: exporting?.exportStats().spansDropped ?? 0 }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * (w) The cost of telemetry per step on the loop bench's session: 1,000 steps of a scripted model calling a no-op tool,
 * without the plugin, with it exporting every span and metric over OTLP/HTTP protobuf to a collector in another process,
 * and with the conversation's content captured too. Runs of the modes alternate, in a rotating order.
 */
export async function telemetryBench(options: { steps: number; runs: number }): Promise<Section> {
  const sink = await startSink()
  const modes: Mode[] = ['off', 'on', 'on, content captured']
  try {
    // Warmup: the SDK's and the exporter's code are compiled in the first runs; three runs of each reach the steady state.
    for (let warmup = 0; warmup < 3; warmup++) for (const mode of modes) await timedRun(mode, options.steps, sink.url)
    const samples = new Map<Mode, { perStep: number[]; cpuUs: number }[]>(modes.map((mode) => [mode, []]))
    const slopes = new Map<Mode, number[]>(modes.map((mode) => [mode, []]))
    const dropped = new Map<Mode, number[]>(modes.map((mode) => [mode, []]))
    for (let round = 0; round < options.runs; round++) {
      for (let index = 0; index < modes.length; index++) {
        const mode = modes[(index + round) % modes.length]!
        const run = await timedRun(mode, options.steps, sink.url)
        const longer = await timedRun(mode, options.steps * 2, sink.url)
        samples.get(mode)!.push(run)
        slopes.get(mode)!.push((longer.cpuUs - run.cpuUs) / options.steps)
        dropped.get(mode)!.push(longer.dropped)
      }
    }
    const requests = await sink.requests()
    const median = (values: number[]) => summarize(values).median
    const runs: TelemetryRun[] = modes.map((mode) => {
      const own = samples.get(mode)!
      return {
        mode,
        // Each run's median step, and the median of those runs: a run's pauses (GC, a neighbour) move its p99, not this.
        perStepUs: summarize(own.map((run) => median(run.perStep))),
        cpuPerStepUs: median(slopes.get(mode)!),
        spansSent: mode === 'off' ? 0 : options.steps * 2 + 2,
        spansDroppedLonger: median(dropped.get(mode)!),
      }
    })
    const off = runs[0]!
    return {
      title: `(w) Telemetry: cost per step of a ${fmt(options.steps)}-step \`session.run()\`, exporting over OTLP/HTTP`,
      head: [
        'telemetry',
        'µs/step (median of run medians)',
        '× off',
        'CPU µs/step (slope, all threads)',
        '× off',
        'spans per run',
        `dropped of ${fmt(options.steps * 4 + 2)}`,
      ],
      rows: runs.map((run) => [
        run.mode,
        fmt(run.perStepUs.median),
        `${fmt(run.perStepUs.median / off.perStepUs.median, 2)}×`,
        fmt(run.cpuPerStepUs),
        `${fmt(run.cpuPerStepUs / off.cpuPerStepUs, 2)}×`,
        fmt(run.spansSent),
        fmt(run.spansDroppedLonger),
      ]),
      notes: [
        `${options.runs} runs per mode after three warmup runs each, in a rotating order; the loop bench's session (the scripted model, ` +
          'a no-op tool, `fsync: never`) with usage on every step. Per-step time is between consecutive `step/start` events. CPU ' +
          "is the process's user + system time (every thread: the export thread's too) from the kernel's creation to the end " +
          `of \`kernel.dispose()\` (which exports what is queued), per step by the slope between a run of ${fmt(options.steps)} steps and one ` +
          `of ${fmt(options.steps * 2)}. The collector is a plain HTTP server in another process that answers at once; it took ${requests} ` +
          'export requests in all. Spans per run: the session, the turn, a `chat` and an `execute_tool` per step. Dropped: ' +
          `the spans the export queue could not take in a run of ${fmt(options.steps * 2)} steps (median), steps far faster than ` +
          'a model answers.',
      ],
      data: { options, runs, requests },
    }
  } finally {
    sink.child.kill()
  }
}
