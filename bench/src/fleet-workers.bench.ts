import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { FixtureProcess } from './fixture-process.js'
import { fmt, now, since, summarize } from './measure.js'
import { postgresCpuMs } from './postgres-cpu.js'
import { withPostgres } from './postgres-setup.js'
import type { Section } from './report.js'

export interface FleetWorkersOptions {
  threads: number
  /** Turns per thread; each is two model steps (a `noop` call, then a text). */
  turns: number
  /** The scripted model's latency per step. */
  delayMs: number
  /** Runs per setup, the setups in a rotating order. */
  runs: number
}

interface Setup {
  workers: number
  store: 'postgres' | 'jsonl'
}

/** The two compared, then one worker on the JSONL store: what the same turns cost without the database. */
const SETUPS: Setup[] = [
  { workers: 1, store: 'postgres' },
  { workers: 2, store: 'postgres' },
  { workers: 1, store: 'jsonl' },
]

interface WorkersRun extends Setup {
  wallMs: number
  /** The workers' CPU time from `go` to their sessions ended, summed. */
  workerCpuMs: number
  /** The PostgreSQL server's CPU time over the same window (all its processes). */
  postgresCpuMs: number | undefined
}

/** The setup's worker processes share the threads round-robin; timed from `go` to every worker's `done`. */
async function runWorkers(
  url: string,
  dataDir: string,
  dir: string,
  setup: Setup,
  tag: string,
  options: FleetWorkersOptions,
): Promise<WorkersRun> {
  const children: FixtureProcess[] = []
  try {
    for (let worker = 0; worker < setup.workers; worker++) {
      const threads = Array.from({ length: options.threads }, (_, i) => `${tag}-thread-${i}`).filter((_, i) => i % setup.workers === worker)
      const cwd = join(dir, `${tag}-worker-${worker}`)
      mkdirSync(cwd, { recursive: true })
      const args = ['--url', url, '--schema', 'bench_workers', '--dir', cwd, '--store', setup.store]
      const work = ['--turns', String(options.turns), '--delay-ms', String(options.delayMs)]
      children.push(new FixtureProcess('fleet-worker', [...args, ...work, ...threads]))
    }
    await Promise.all(children.map((child) => child.waitForEvent('ready', 30_000)))
    const postgresBefore = postgresCpuMs(dataDir)
    const start = now()
    for (const child of children) child.send('go')
    const done = await Promise.all(children.map((child) => child.waitForEvent('done', 120_000)))
    const wallMs = since(start) / 1e6
    const postgresAfter = postgresCpuMs(dataDir)
    return {
      ...setup,
      wallMs,
      workerCpuMs: done.reduce((sum, line) => sum + (line.cpuMs as number), 0),
      postgresCpuMs: postgresBefore === undefined || postgresAfter === undefined ? undefined : postgresAfter - postgresBefore,
    }
  } finally {
    await Promise.all(children.map((child) => child.kill()))
  }
}

const label = ({ workers, store }: Setup, threads: number) =>
  store === 'jsonl'
    ? `1 worker (${threads} threads), JSONL store (reference)`
    : workers === 1
      ? `1 worker (${threads} threads)`
      : `${workers} workers (${threads / workers} threads each)`

export async function fleetWorkersBench(options: FleetWorkersOptions): Promise<Section> {
  const title = `(v) fleet-workers: ${options.threads} threads on two worker processes vs one`
  return withPostgres(title, 'hk-bench-fleet-workers-', async (server, root) => {
    const runs: WorkersRun[] = []
    for (let run = 0; run < options.runs; run++) {
      for (let i = 0; i < SETUPS.length; i++) {
        const setup = SETUPS[(i + run) % SETUPS.length]!
        runs.push(await runWorkers(server.url, server.dataDir, root, setup, `run${run}-${setup.store}-${setup.workers}w`, options))
      }
    }
    const steps = options.threads * options.turns * 2
    const floorMs = options.turns * 2 * options.delayMs
    const median = (setup: Setup, pick: (run: WorkersRun) => number) =>
      summarize(runs.filter((run) => run.workers === setup.workers && run.store === setup.store).map(pick)).median
    const wall = (setup: Setup) => median(setup, (run) => run.wallMs)
    const oneWorker = wall(SETUPS[0]!)
    const rows = SETUPS.map((setup) => [
      label(setup, options.threads),
      fmt(wall(setup)),
      fmt(wall(setup) / oneWorker, 2),
      fmt(wall(setup) / floorMs, 2),
      fmt((median(setup, (run) => run.workerCpuMs) / steps) * 1000),
      runs.some((run) => run.postgresCpuMs === undefined) ? '?' : fmt((median(setup, (run) => run.postgresCpuMs!) / steps) * 1000),
    ])
    return {
      title,
      head: ['setup', 'wall ms (median)', '× 1 worker', '× model time alone', 'workers’ CPU µs/step', 'PostgreSQL CPU µs/step'],
      rows,
      notes: [
        `Each worker (\`src/fixtures/fleet-worker.ts\`) is a process with a kernel on the PostgreSQL store (default ` +
          "`fsync: 'steering'`: each turn end waits for its commit), a scripted model answering each step after " +
          `${options.delayMs} ms, and a no-op tool. ${options.threads} threads, ${options.turns} turns each (a \`noop\` call, ` +
          `then a text: ${fmt(steps)} model steps in all), every thread's turns one after the other and all threads at ` +
          'once; timed from `go` (sessions started, one warmup turn each) to every worker having ended its sessions. The ' +
          'reference row is one worker on the default JSONL store (fsync at each turn end too). "Model time alone" is one ' +
          `thread's ${options.turns * 2} steps × ${options.delayMs} ms = ${fmt(floorMs)} ms, what a run would take if ` +
          `nothing else cost. Median of ${options.runs} runs per setup, in a rotating order; CPU per model step.`,
      ],
      data: { options, runs },
    }
  })
}
