import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ExecProcessRunner } from '@harness-kernel/kernel'
import { codexKernel, preToolUseHooks } from './codex-setup.js'
import { alternateRuns, medianDifferenceInterval, type RunsByHook, runsByHook, shellCallsScript, timedKernelTurn } from './hook-latency.js'
import { fmt, type Stats, summarize } from './measure.js'
import { jsonLines, type LocatedClient, locateClient, realClientsHome, runCapturing, runFailure, withRealClient } from './real-client.js'
import type { Section } from './report.js'

const CODEX_VERSION = '0.169.0'

type Client = 'codex' | 'kernel' | 'kernel-in-process'

/** The turn both clients run: `calls` tool calls, each model answer `latencyMs` after its request. */
interface ModelTiming {
  calls: number
  latencyMs: number
}

/** One way of timing the model, with the runs of each client. */
interface Phase {
  latencyMs: number
  reps: number
  kernelReps: number
}

interface PhaseResult extends Phase {
  codex: ClientResult
  kernel: ClientResult
  kernelInProcess: ClientResult
}

/** One run of a K-tool-call turn. */
interface RunSample {
  withHook: boolean
  /** Codex: the `codex exec` process, start to exit; kernel: `session.run()`. */
  totalMs: number
  /** One per tool call: from the model request that asked for the call to the next request. */
  stepMs: number[]
}

export interface ClientResult extends RunsByHook<RunSample> {
  client: Client
  stepWithout: Stats
  stepWith: Stats
  /** (median total with − median total without) / K. */
  addedPerCallTotals: number
  /** median step with − median step without. */
  addedPerCallSteps: number
  /** 90% bootstrap interval of `addedPerCallSteps`. */
  addedPerCallStepsInterval: [number, number]
}

function locate() {
  const home = realClientsHome()
  return locateClient({
    client: 'Codex',
    home,
    bin: join(home, 'node_modules', '.bin', 'codex'),
    versionOk: (version) => version.includes(CODEX_VERSION),
    expected: `codex-cli ${CODEX_VERSION}`,
    script: ['codex', 'run-case.sh'],
  })
}

/**
 * `calls` shell calls of `true`, then a message: the fake Responses server's plan (the scripted model's is
 * `shellCallsScript`), each answer `latencyMs` after its request.
 */
const codexPlan = (calls: number, latencyMs: number) =>
  [...Array.from({ length: calls }, () => ({ kind: 'tool', cmd: 'true' })), { kind: 'message', text: 'done' }].map((step) =>
    // biome-ignore lint/suspicious/noThenProperty: the fake server's plan format names the delayed step `then`
    latencyMs > 0 ? { kind: 'delay', ms: latencyMs, then: step } : step,
  )

/** One `codex exec` through run-case.sh; timings from its codex.time and the fake server's request log. */
async function codexRun(located: LocatedClient, root: string, name: string, withHook: boolean, model: ModelTiming): Promise<RunSample> {
  const { calls, latencyMs } = model
  const caseDir = join(root, `cases-${latencyMs}`, withHook ? 'with-hook' : 'without-hook')
  if (!existsSync(caseDir)) {
    mkdirSync(caseDir, { recursive: true })
    writeFileSync(join(caseDir, 'plan.json'), `${JSON.stringify(codexPlan(calls, latencyMs))}\n`)
    writeFileSync(join(caseDir, 'hooks.json'), `${JSON.stringify(preToolUseHooks(withHook ? ['true'] : []))}\n`)
  }
  const out = join(root, `codex-runs-${latencyMs}`, name)
  // TRUST=0: exec mode bypasses hook trust with --dangerously-bypass-hook-trust, so the app-server trust step is not needed.
  const env = { ...process.env, OUT: out, TRUST: '0', REAL_CLIENTS_HOME: located.home }
  const result = await runCapturing('bash', [located.script, caseDir], env)
  const dir = join(out, withHook ? 'with-hook' : 'without-hook')
  const fail = runFailure('codex-real', dir, result.output)
  if (result.code !== 0 || readFileSync(join(dir, 'codex.rc'), 'utf8').trim() !== '0') throw fail('the codex exec run failed')
  const time = /start=([\d.]+) end=([\d.]+)/.exec(readFileSync(join(dir, 'codex.time'), 'utf8'))
  if (!time) throw fail('no codex.time')
  const times = (jsonLines(join(dir, 'requests.jsonl')) as { t: string }[]).map((request) => Date.parse(request.t))
  if (times.length !== calls + 1) throw fail(`${times.length} model requests, expected ${calls + 1}`)
  const hookRuns = readFileSync(join(dir, 'codex.stderr'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() === 'hook: PreToolUse Completed').length
  if (hookRuns !== (withHook ? calls : 0)) throw fail(`${hookRuns} completed PreToolUse hooks, expected ${withHook ? calls : 0}`)
  return {
    withHook,
    totalMs: (Number(time[2]) - Number(time[1])) * 1000,
    stepMs: times.slice(1).map((t, index) => t - times[index]!),
  }
}

/**
 * One `session.run()` of the same turn on a fresh kernel with the Codex dialect; steps timed from `step/start` events.
 * `inProcess`: its `processRunner` is `ExecProcessRunner` instead of the default, the process launcher.
 */
async function kernelRun(root: string, name: string, withHook: boolean, model: ModelTiming, inProcess: boolean): Promise<RunSample> {
  const { calls, latencyMs } = model
  const stepStart: number[] = []
  let hookRuns = 0
  const dir = join(root, `${inProcess ? 'kernel-in-process-runs' : 'kernel-runs'}-${latencyMs}`, name)
  const commands = withHook ? ['true'] : []
  const processRunner = inProcess ? { processRunner: new ExecProcessRunner() } : {}
  const script = shellCallsScript(calls).map((step) => (latencyMs > 0 ? { ...step, delayMs: latencyMs } : step))
  const totalMs = await timedKernelTurn(
    'codex-real',
    (probe) => codexKernel({ dir, commands, script, plugins: [probe], ...processRunner }).kernel,
    (event, at) => {
      if (event.type === 'step/start' || event.type === 'turn/end') stepStart.push(at())
      if (event.type === 'hook/run') hookRuns++
    },
  )
  if (hookRuns !== (withHook ? calls : 0)) throw new Error(`codex-real: ${hookRuns} kernel hook runs, expected ${withHook ? calls : 0}`)
  // step k asks for call k; its duration runs to the next step's start (request k + 1), as in Codex's request log.
  return { withHook, totalMs, stepMs: stepStart.slice(1, calls + 1).map((t, index) => t - stepStart[index]!) }
}

function summarizeClient(client: Client, samples: RunSample[], calls: number): ClientResult {
  const { runs, totalWith, totalWithout } = runsByHook(samples)
  const stepsWith = runs.with.flatMap((sample) => sample.stepMs)
  const stepsWithout = runs.without.flatMap((sample) => sample.stepMs)
  const stepWith = summarize(stepsWith)
  const stepWithout = summarize(stepsWithout)
  return {
    client,
    runs,
    totalWith,
    totalWithout,
    stepWith,
    stepWithout,
    addedPerCallTotals: (totalWith.median - totalWithout.median) / calls,
    addedPerCallSteps: stepWith.median - stepWithout.median,
    addedPerCallStepsInterval: medianDifferenceInterval(stepsWith, stepsWithout),
  }
}

/**
 * The same turn through the real Codex and the kernel, with and without one trivial PreToolUse hook, in each `phases`
 * (the model answering at once, or after `latencyMs`).
 */
export async function codexRealBench(options: { calls: number; phases: Phase[] }): Promise<Section> {
  const title = '(f) Real Codex vs the kernel: latency one trivial PreToolUse hook adds per tool call'
  return withRealClient(title, locate(), 'hk-bench-codex-real-', async (located, root) => {
    const { calls } = options
    const results: PhaseResult[] = []
    for (const phase of options.phases) results.push(await measurePhase(located, root, { calls, latencyMs: phase.latencyMs }, phase))
    const row = (label: string, result: ClientResult, reps: number) => [
      label,
      `${reps} × ${calls}`,
      fmt(result.totalWithout.median),
      fmt(result.totalWith.median),
      fmt(result.addedPerCallTotals, 1),
      `${fmt(result.stepWithout.median, 1)} → ${fmt(result.stepWith.median, 1)}`,
      fmt(result.addedPerCallSteps, 1),
      `${fmt(result.addedPerCallStepsInterval[0], 1)} … ${fmt(result.addedPerCallStepsInterval[1], 1)}`,
    ]
    const ratio = (a: number, b: number) => (b > 0 ? `${fmt(a / b, 2)}×` : "n/a (Codex's is ≤ 0)")
    const ratioRow = (label: string, kernel: ClientResult, codex: ClientResult) => [
      label,
      '',
      '',
      '',
      ratio(kernel.addedPerCallTotals, codex.addedPerCallTotals),
      '',
      ratio(kernel.addedPerCallSteps, codex.addedPerCallSteps),
      '',
    ]
    const phaseRows = ({ latencyMs, reps, kernelReps, codex, kernel, kernelInProcess }: PhaseResult) => {
      const model = latencyMs > 0 ? `model answers after ${latencyMs} ms` : 'model answers at once'
      return [
        row(`${model}: real Codex ${CODEX_VERSION} (\`codex exec\`)`, codex, reps),
        row(`${model}: kernel + Codex dialect (process launcher, the default)`, kernel, kernelReps),
        row(`${model}: kernel + Codex dialect, in-process runner`, kernelInProcess, kernelReps),
        ratioRow(`${model}: kernel / Codex`, kernel, codex),
        ratioRow(`${model}: kernel in-process / Codex`, kernelInProcess, codex),
      ]
    }
    return {
      title,
      head: [
        'client',
        'runs × tool calls (each way)',
        'run ms without hook (median)',
        'run ms with hook (median)',
        'added ms per call: (with − without) / K',
        'ms per tool step (median): without → with',
        'added ms per call: step medians',
        '90% interval',
      ],
      rows: results.flatMap(phaseRows),
      notes: [
        `One turn of K = ${calls} shell calls of \`true\`, then a message, with and without hooks.json = one PreToolUse handler \`true\` ` +
          '(matcher `Bash`). Codex: `shared/real-clients/codex/run-case.sh` (fake Responses server on 127.0.0.1, `codex exec ' +
          '--dangerously-bypass-hook-trust`); run ms is the `codex exec` process (start-up included), a tool step is the time ' +
          'between the model request that asked for the call and the next request (the fake server logs both). Kernel: scripted ' +
          'model, `tools()`, `codexHooks({ trust: "all" })`, a fresh kernel per run, its processes started by the process launcher ' +
          '(the default) or in its own process (`ExecProcessRunner`), a run of each in turn; run ms is `session.run()`, a tool step is ' +
          'between consecutive `step/start` events. One unrecorded run of each first; with and without alternate. Step medians are ' +
          'over all K steps of all runs. The interval is a percentile bootstrap of the step-median difference; a negative "added" ' +
          'value, or an interval that holds 0, means the difference is below the noise of this machine.',
        "A model that answers after some time (the fake server's `delay` step for Codex, the scripted model's `delayMs` for " +
          'the kernel, before every answer) is what a real one does. While it thinks, the kernel starts the next hook shell ' +
          '(docs/decisions.md, 58); a model that answers at once leaves no such time, and that fork + exec then runs beside the ' +
          "tool's, which on this machine slows both (two loops of `bash -c true` side by side: 7.8 against 4.5 ms each).",
      ],
      data: { calls, codexVersion: CODEX_VERSION, phases: results },
    }
  })
}

async function measurePhase(located: LocatedClient, root: string, model: ModelTiming, phase: Phase): Promise<PhaseResult> {
  const { calls } = model
  // One unrecorded run of each first (disk cache, JIT), then with and without alternate, the order flipping every repetition.
  const codexSamples = await alternateRuns(phase.reps, (name, withHook) => codexRun(located, root, name, withHook, model))
  // The kernel with each runner, a run of each in turn (the order flipping every repetition).
  let pairs = 0
  const kernelPairs = await alternateRuns(phase.kernelReps, async (name, withHook) => {
    const order = pairs++ % 2 === 0 ? [false, true] : [true, false]
    const runs: Record<string, RunSample> = {}
    for (const inProcess of order) runs[String(inProcess)] = await kernelRun(root, name, withHook, model, inProcess)
    return { launcher: runs.false!, inProcess: runs.true! }
  })
  return {
    ...phase,
    codex: summarizeClient('codex', codexSamples, calls),
    kernel: summarizeClient(
      'kernel',
      kernelPairs.map((pair) => pair.launcher),
      calls,
    ),
    kernelInProcess: summarizeClient(
      'kernel-in-process',
      kernelPairs.map((pair) => pair.inProcess),
      calls,
    ),
  }
}
