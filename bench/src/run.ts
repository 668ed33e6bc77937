import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { appServerBench } from './app-server.bench.js'
import { claudeCodeConcurrencyBench } from './claude-code-concurrency.bench.js'
import { claudeCodeDriverStepsBench } from './claude-code-driver-steps.bench.js'
import { claudeCodeLiveSteerBench } from './claude-code-live-steer.bench.js'
import { claudeCodeOverheadBench } from './claude-code-overhead.bench.js'
import { claudeCodeSteerBench } from './claude-code-steer.bench.js'
import { claudeCodeRealBench } from './claude-code-vs-real.bench.js'
import { codexConcurrencyBench } from './codex-concurrency.bench.js'
import { codexDriverStepsBench } from './codex-driver-steps.bench.js'
import { codexHookOverheadBench } from './codex-hook-overhead.bench.js'
import { codexSteerBench } from './codex-steer.bench.js'
import { codexRealBench } from './codex-vs-real.bench.js'
import { compactionBench } from './compaction.bench.js'
import { dispatchBench } from './dispatch.bench.js'
import { dispatchBreakdownBench } from './dispatch-breakdown.bench.js'
import { fleetSteerBench } from './fleet-steer.bench.js'
import { fleetWorkersBench } from './fleet-workers.bench.js'
import { loopBench } from './loop.bench.js'
import { fmt } from './measure.js'
import { postgresAppendBench } from './postgres-append.bench.js'
import { postgresTakeoverBench } from './postgres-takeover.bench.js'
import { seedFromEnv } from './reliability/prng.js'
import { reliabilityBench } from './reliability.bench.js'
import { markdown, type Section } from './report.js'
import { sandboxBench } from './sandbox.bench.js'
import { sessionLogBench } from './session-log.bench.js'
import { startupBench } from './startup.bench.js'
import { telemetryBench } from './telemetry.bench.js'

/**
 * `node bench/dist/run.js [name…]`: the default set when none is named; `dispatch-breakdown`, the `*-real` ones,
 * `claude-code-driver-steps` (about a minute of `claude -p` runs), `codex-driver-steps` (the same with `codex exec`) and
 * `reliability` (the test/reliability scenarios at full scale, a few minutes) are opt-in, and so are the PostgreSQL ones
 * (`postgres-append`, `postgres-takeover`, `fleet-steer`, `fleet-workers`: each starts a PostgreSQL server of its own),
 * and so is `telemetry` (the loop's session with and without `@harness-kernel/telemetry` exporting over OTLP).
 */
const BENCHES: Record<string, () => Promise<Section>> = {
  dispatch: () => dispatchBench({ ops: 200_000, warmup: 2, samples: 7 }),
  loop: () => loopBench({ steps: 1000, runs: 3, every: 50 }),
  'session-log': () => sessionLogBench({ events: 20_000, syncedEvents: 500, samples: 5 }),
  'dispatch-breakdown': () => dispatchBreakdownBench({ ops: 100_000, warmup: 2, samples: 7 }),
  'codex-overhead': () => codexHookOverheadBench({ calls: 200, warmup: 20 }),
  'codex-concurrency': () => codexConcurrencyBench({ handlers: 8, runs: 10, warmup: 2 }),
  'codex-real': () =>
    codexRealBench({
      calls: 40,
      phases: [
        { latencyMs: 0, reps: 8 },
        { latencyMs: 50, reps: 8 },
      ],
    }),
  'claude-code-overhead': () => claudeCodeOverheadBench({ calls: 200, warmup: 20 }),
  'claude-code-concurrency': () => claudeCodeConcurrencyBench({ handlers: 8, groups: 2, runs: 10, warmup: 2 }),
  'claude-code-real': () => claudeCodeRealBench({ calls: 40, reps: 8, kernelReps: 10 }),
  'claude-code-steer': () => claudeCodeSteerBench({ turns: 20, warmup: 2 }),
  'claude-code-live-steer': () => claudeCodeLiveSteerBench({ turns: 20, warmup: 2 }),
  'claude-code-driver-steps': () => claudeCodeDriverStepsBench({ calls: 10, reps: 10 }),
  'codex-steer': () => codexSteerBench({ turns: 20, warmup: 2, deltas: 20, deltaMs: 10 }),
  'codex-driver-steps': () => codexDriverStepsBench({ calls: 10, reps: 8, execReps: 8 }),
  startup: () => startupBench({ runs: 15, warmup: 2 }),
  telemetry: () => telemetryBench({ steps: 1000, runs: 5 }),
  sandbox: () => sandboxBench({ samples: 60, warmup: 5 }),
  compaction: () => compactionBench({ steps: 2000, outputChars: 2000, contextWindow: 50_000 }),
  'app-server': () => appServerBench({ steps: 2000, runs: 5, threadSteps: 500, threads: 8, concurrencyRuns: 4, warmupSteps: 300 }),
  'postgres-append': () => postgresAppendBench({ calls: 500, warmup: 50, batchEvents: 5000, samples: 5 }),
  'postgres-takeover': () => postgresTakeoverBench({ leaseMs: 2000, runs: 6, retryMs: 20 }),
  'fleet-steer': () => fleetSteerBench({ steers: 200, warmup: 20, pollMs: 1000 }),
  'fleet-workers': () => fleetWorkersBench({ threads: 8, turns: 20, delayMs: 25, runs: 3 }),
  reliability: () =>
    reliabilityBench({
      hangingHooks: 1000,
      hooksPerRound: 200,
      bigOutputBytes: 1024 * 1024 * 1024,
      fuzzGroups: 20_000,
      fuzzSessions: 20,
      steeringSessions: 10,
      steeringTurns: 120,
      steersPerTurn: 8,
      killRounds: 20,
      seed: seedFromEnv(),
    }),
}
/** Run order: the loop first, so that its RSS samples are not inflated by the garbage of the dispatch runs. */
const DEFAULT = [
  'loop',
  'startup',
  'session-log',
  'dispatch',
  'codex-overhead',
  'codex-concurrency',
  'claude-code-overhead',
  'claude-code-concurrency',
  'app-server',
  'compaction',
  'sandbox',
  // Last: they load a driver into this process and run Claude Code or Codex beside it.
  'claude-code-steer',
  'claude-code-live-steer',
  'codex-steer',
]
/** Print order. */
const ORDER = [
  'startup',
  'dispatch',
  'dispatch-breakdown',
  'loop',
  'session-log',
  'telemetry',
  'compaction',
  'sandbox',
  'codex-overhead',
  'codex-concurrency',
  'codex-real',
  'app-server',
  'claude-code-overhead',
  'claude-code-concurrency',
  'claude-code-real',
  'claude-code-steer',
  'claude-code-live-steer',
  'claude-code-driver-steps',
  'codex-steer',
  'codex-driver-steps',
  'postgres-append',
  'postgres-takeover',
  'fleet-steer',
  'fleet-workers',
  'reliability',
]

const chosen = process.argv.slice(2)
for (const name of chosen) if (!(name in BENCHES)) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHES).join(', ')}`)
const names = chosen.length > 0 ? chosen : DEFAULT

const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform}-${process.arch}`,
  loadavgAtStart: loadavg().map((load) => Number(load.toFixed(2))),
}
console.log(
  `# harness-kernel bench — ${new Date().toISOString()}\n\n` +
    `${machine.cpus} × ${machine.cpu}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}, ` +
    `load average ${machine.loadavgAtStart.join(' / ')} at start. Compare ratios, not absolute numbers.\n`,
)

const started = Date.now()
const sections: Record<string, Section> = {}
for (const name of names) {
  const start = Date.now()
  process.stderr.write(`running ${name}… `)
  sections[name] = await BENCHES[name]!()
  process.stderr.write(`${fmt((Date.now() - start) / 1000, 1)} s\n`)
}
for (const name of ORDER) if (sections[name]) console.log(`${markdown(sections[name])}\n`)

const out = fileURLToPath(new URL('../results/latest.json', import.meta.url))
mkdirSync(fileURLToPath(new URL('../results/', import.meta.url)), { recursive: true })
const results = {
  date: new Date(started).toISOString(),
  machine: { ...machine, loadavgAtEnd: loadavg().map((load) => Number(load.toFixed(2))) },
  durationSec: (Date.now() - started) / 1000,
  results: Object.fromEntries(Object.entries(sections).map(([name, section]) => [name, section.data])),
}
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)
console.log(`Wrote ${out} (${fmt(results.durationSec, 1)} s in all).`)
