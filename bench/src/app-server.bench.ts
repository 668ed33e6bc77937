import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppServerClient } from '@harness-kernel/app-server'
import type { ScriptStep } from '@harness-kernel/scripted-model'
import { fmt, gc, now, since, summarize } from './measure.js'
import type { Section } from './report.js'

const entry = fileURLToPath(new URL('./app-server-entry.js', import.meta.url))

export interface AppServerBenchOptions {
  /** (a) Sampling steps of the one timed turn per run. */
  steps: number
  /** (a) Runs each way (host input on / off), alternating; host-input boundaries in all = steps × runs. */
  runs: number
  /** (b) Steps per thread. */
  threadSteps: number
  /** (b) Concurrent threads. */
  threads: number
  /** (b) Runs each way (one thread / all threads), alternating. */
  concurrencyRuns: number
  /** Steps of an untimed turn on its own thread before the timed ones, in every server (JIT warmup of server and client). */
  warmupSteps: number
}

interface TurnRun {
  hostInput: boolean
  threads: number
  /** Sampling steps of the timed turns, all threads: model calls. */
  steps: number
  /** Wall time from the first timed `turn/start` sent to the last `turn/completed` received. */
  ms: number
  /** `turn/hostInput/request`s the client answered during the timed turns. */
  hostInputRequests: number
  /** Round trips of those requests, timed in the server (request line written → answer line read), ms. */
  rtts: number[]
  /** The server's CPU time from the first timed `turn/started` to the last `turn/completed` it wrote, ms. */
  serverCpuMs: number
  /** This (the client's) process's CPU time over the timed window, ms. */
  clientCpuMs: number
  statuses: string[]
}

interface EntryStats {
  rtts: number[]
  marks: { cpuMs: number; rtts: number }[]
}

const noopCalls = (count: number): ScriptStep[] => Array.from({ length: count }, () => ({ tool_calls: [{ name: 'noop', input: {} }] }))

/**
 * The script is one queue for all threads: the warmup turn's steps (N − 1 `noop` calls, then the text that ends it), then
 * `threads` × (steps − 1) calls and one ending text per thread. Concurrent threads take calls from the queue until
 * they run out, so each ends after about `steps` steps; the total is exact.
 */
function script(warmupSteps: number, threads: number, steps: number): ScriptStep[] {
  const ends: ScriptStep[] = Array.from({ length: threads }, () => ({ text: 'done' }))
  return [...noopCalls(warmupSteps - 1), { text: 'warm' }, ...noopCalls(threads * (steps - 1)), ...ends]
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e3
}

/**
 * A fresh server process (`app-server-entry.ts`) in a temp dir; an untimed warmup turn on its own thread, then `threads`
 * threads each run one turn at once. The client answers every `turn/hostInput/request` at once with no items.
 */
async function runTurns(hostInput: boolean, threads: number, steps: number, warmupSteps: number): Promise<TurnRun> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-app-server-'))
  const scriptFile = join(dir, 'script.json')
  const statsFile = join(dir, 'stats.json')
  writeFileSync(scriptFile, JSON.stringify({ steps: script(warmupSteps, threads, steps) }))
  let hostInputRequests = 0
  const args = [entry, '--script', scriptFile, '--cwd', dir, '--stats', statsFile]
  const client = AppServerClient.spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, CODEX_HOME: dir, HARNESS_HOME: dir },
    stderr: 'pipe',
    onHostInput: () => {
      hostInputRequests++
      return { items: [] }
    },
  })
  try {
    await client.initialize(hostInput ? { hostInput: {} } : {})
    const warm = (await client.startThread({ cwd: dir })).thread.id
    await client.turnCompleted(warm, (await client.startTurn(warm, 'warm up')).turn.id, 600_000)
    const ids: string[] = []
    for (let index = 0; index < threads; index++) ids.push((await client.startThread({ cwd: dir })).thread.id)
    // The client keeps every message it received; drop the warmup's so that both variants start alike.
    client.received.length = 0
    client.notifications.length = 0
    hostInputRequests = 0
    gc()
    const cpuStart = cpuMs()
    const start = now()
    const turns = await Promise.all(ids.map((id) => client.startTurn(id, 'go')))
    const completed = await Promise.all(ids.map((id, index) => client.turnCompleted(id, turns[index]!.turn.id, 600_000)))
    const ms = since(start) / 1e6
    const clientCpuMs = cpuMs() - cpuStart
    const code = await client.close()
    if (code !== 0) throw new Error(`app-server-entry exited with ${code}: ${client.stderr}`)
    const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as EntryStats
    // Marks: the warmup turn's started and completed, then the timed turns' (`threads` of each).
    const first = stats.marks[2]!
    const last = stats.marks.at(-1)!
    if (stats.marks.length !== 2 + 2 * threads) throw new Error(`expected ${2 + 2 * threads} turn marks, got ${stats.marks.length}`)
    return {
      hostInput,
      threads,
      steps: threads * steps,
      ms,
      hostInputRequests,
      rtts: stats.rtts.slice(first.rtts),
      serverCpuMs: last.cpuMs - first.cpuMs,
      clientCpuMs,
      statuses: completed.map(({ turn }) => turn.status),
    }
  } finally {
    if (client.child?.exitCode === null) client.child.kill()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs each variant `runs` times, alternating in a rotating order; the recorded runs per variant. */
async function alternate(variants: Record<string, () => Promise<TurnRun>>, runs: number): Promise<Record<string, TurnRun[]>> {
  const names = Object.keys(variants)
  const recorded: Record<string, TurnRun[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      const run = await variants[name]!()
      if (run.statuses.some((status) => status !== 'completed')) throw new Error(`${name}: turn ended ${run.statuses.join(', ')}`)
      recorded[name]!.push(run)
    }
  }
  return recorded
}

const median = (values: number[]) => summarize(values).median
const medianOf = (runs: TurnRun[], value: (run: TurnRun) => number) => median(runs.map(value))
const stepsPerSec = (run: TurnRun) => run.steps / (run.ms / 1e3)

export async function appServerBench(options: AppServerBenchOptions): Promise<Section> {
  // (a) One turn of `steps` steps; host input negotiated and answered at once with no items, or not negotiated.
  const a = await alternate(
    {
      'host input': () => runTurns(true, 1, options.steps, options.warmupSteps),
      'no host input': () => runTurns(false, 1, options.steps, options.warmupSteps),
    },
    options.runs,
  )
  const withRuns = a['host input']!
  const withoutRuns = a['no host input']!
  const rtts = withRuns.flatMap((run) => run.rtts)
  const rtt = summarize(rtts)
  const rttMean = rtts.reduce((sum, value) => sum + value, 0) / rtts.length
  const boundaries = medianOf(withRuns, (run) => run.hostInputRequests)
  const withMs = medianOf(withRuns, (run) => run.ms)
  const withoutMs = medianOf(withoutRuns, (run) => run.ms)
  /** What host input adds per boundary: (median run with − median run without) / requests. */
  const addedBy = (withs: TurnRun[], withouts: TurnRun[]) => {
    const requests = medianOf(withs, (run) => run.hostInputRequests)
    const diff = (value: (run: TurnRun) => number) => (medianOf(withs, value) - medianOf(withouts, value)) / requests
    return { wallMs: diff((run) => run.ms), serverCpuMs: diff((run) => run.serverCpuMs), clientCpuMs: diff((run) => run.clientCpuMs) }
  }
  const added = addedBy(withRuns, withoutRuns)

  // (b) `threads` threads at once on one server vs one thread alone, host input on.
  const many = `${options.threads} threads`
  const b = await alternate(
    {
      '1 thread': () => runTurns(true, 1, options.threadSteps, options.warmupSteps),
      [many]: () => runTurns(true, options.threads, options.threadSteps, options.warmupSteps),
    },
    options.concurrencyRuns,
  )
  const oneRate = medianOf(b['1 thread']!, stepsPerSec)
  const manyRate = medianOf(b[many]!, stepsPerSec)

  const row = (label: string, runs: TurnRun[], ratio: string): string[] => [
    label,
    fmt(runs.length),
    fmt(runs[0]!.steps),
    fmt(medianOf(runs, (run) => run.hostInputRequests)),
    fmt(medianOf(runs, (run) => run.ms)),
    fmt(medianOf(runs, (run) => (run.ms / run.steps) * 1e3)),
    fmt(medianOf(runs, stepsPerSec)),
    fmt(medianOf(runs, (run) => (run.serverCpuMs / run.steps) * 1e3)),
    fmt(medianOf(runs, (run) => (run.clientCpuMs / run.steps) * 1e3)),
    ratio,
  ]
  return {
    title: 'App server over stdio: host input at every boundary, concurrent threads',
    head: [
      'variant',
      'runs',
      'steps per run',
      'host-input requests per run',
      'ms per run (median)',
      'µs/step',
      'steps/s',
      'server CPU µs/step',
      'client CPU µs/step',
      'ratio',
    ],
    rows: [
      row('(a) 1 thread, host input answered at once', withRuns, `${fmt(withMs / withoutMs, 2)}× time`),
      row('(a) 1 thread, no host input', withoutRuns, '1.00× time'),
      row(`(b) 1 thread, host input`, b['1 thread']!, '1.00× steps/s'),
      row(`(b) ${many} at once, host input`, b[many]!, `${fmt(manyRate / oneRate, 2)}× steps/s`),
    ],
    notes: [
      `- Host-input round trip in the server (request line written → answer line read) over ${fmt(rtts.length)} boundaries: ` +
        `median ${fmt(rtt.median, 3)} ms, p99 ${fmt(rtt.p99, 3)} ms, mean ${fmt(rttMean, 3)} ms, max ${fmt(rtt.max, 1)} ms.`,
      `- Added per boundary, (median run with − median run without) / requests: ${fmt(added.wallMs, 3)} ms wall, ` +
        `${fmt(added.serverCpuMs, 3)} ms server CPU, ${fmt(added.clientCpuMs, 3)} ms client CPU.`,
      `- ${many} at once: ${fmt(manyRate / oneRate, 2)}× the steps/s of one thread alone.`,
    ],
    data: {
      options,
      hostInput: { rtt, rttMean, added, boundariesPerRun: boundaries, withMs, withoutMs, runs: withoutSamples(a) },
      concurrency: { oneThreadStepsPerSec: oneRate, manyThreadsStepsPerSec: manyRate, ratio: manyRate / oneRate, runs: withoutSamples(b) },
    },
  }
}

/** Runs for latest.json: each run's round trips summarized instead of listed. */
function withoutSamples(runs: Record<string, TurnRun[]>) {
  return Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      list.map(({ rtts, ...run }) => ({ ...run, ...(rtts.length > 0 ? { rtt: summarize(rtts) } : {}) })),
    ]),
  )
}
