import { execFileSync, spawn } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { definePlugin } from '@harness-kernel/kernel'
import type { ScriptStep } from '@harness-kernel/scripted-model'
import { codexKernel, preToolUseHooks } from './codex-setup.js'
import { fmt, gc, now, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

const CODEX_VERSION = '0.169.0'
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

type Client = 'codex' | 'kernel'

/** One run of a K-tool-call turn. */
interface RunSample {
  withHook: boolean
  /** Codex: the `codex exec` process, start to exit; kernel: `session.run()`. */
  totalMs: number
  /** One per tool call: from the model request that asked for the call to the next request. */
  stepMs: number[]
}

export interface ClientResult {
  client: Client
  runs: { with: RunSample[]; without: RunSample[] }
  totalWithout: Stats
  totalWith: Stats
  stepWithout: Stats
  stepWith: Stats
  /** (median total with − median total without) / K. */
  addedPerCallTotals: number
  /** median step with − median step without. */
  addedPerCallSteps: number
  /** 90% bootstrap interval of `addedPerCallSteps`. */
  addedPerCallStepsInterval: [number, number]
}

function locate(): { ok: true; runCase: string; home: string } | { ok: false; reason: string } {
  const home = process.env.REAL_CLIENTS_HOME || join(homedir(), '.cache', 'harness-real-clients')
  const bin = join(home, 'node_modules', '.bin', 'codex')
  try {
    accessSync(bin, constants.X_OK)
  } catch {
    return { ok: false, reason: `no real Codex at ${bin} (install it with shared/real-clients/install.sh, or set REAL_CLIENTS_HOME)` }
  }
  let version: string
  try {
    version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch (error) {
    return { ok: false, reason: `${bin} --version failed: ${(error as Error).message}` }
  }
  if (!version.includes(CODEX_VERSION)) return { ok: false, reason: `${bin} is "${version}", not codex-cli ${CODEX_VERSION}` }
  const dir = process.env.REAL_CLIENTS_DIR ? resolve(process.env.REAL_CLIENTS_DIR) : resolve(REPO_ROOT, '../shared/real-clients')
  const runCase = join(dir, 'codex', 'run-case.sh')
  if (!existsSync(runCase)) return { ok: false, reason: `${runCase} not found (set REAL_CLIENTS_DIR to the shared real-clients folder)` }
  return { ok: true, runCase, home }
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.once('error', fail)
    child.once('close', (code) => done({ code, output }))
  })
}

/** `calls` shell calls of `true`, then a message: as the fake Responses server's plan and as the scripted model's script. */
const codexPlan = (calls: number) => [
  ...Array.from({ length: calls }, () => ({ kind: 'tool', cmd: 'true' })),
  { kind: 'message', text: 'done' },
]
const kernelScript = (calls: number): ScriptStep[] => [
  ...Array.from({ length: calls }, () => ({ tool_calls: [{ name: 'shell', input: { command: 'true' } }] })),
  { text: 'done' },
]

/** One `codex exec` through run-case.sh; timings from its codex.time and the fake server's request log. */
async function codexRun(
  located: { runCase: string; home: string },
  root: string,
  name: string,
  withHook: boolean,
  calls: number,
): Promise<RunSample> {
  const caseDir = join(root, 'cases', withHook ? 'with-hook' : 'without-hook')
  if (!existsSync(caseDir)) {
    mkdirSync(caseDir, { recursive: true })
    writeFileSync(join(caseDir, 'plan.json'), `${JSON.stringify(codexPlan(calls))}\n`)
    writeFileSync(join(caseDir, 'hooks.json'), `${JSON.stringify(preToolUseHooks(withHook ? ['true'] : []))}\n`)
  }
  const out = join(root, 'codex-runs', name)
  // TRUST=0: exec mode bypasses hook trust with --dangerously-bypass-hook-trust, so the app-server trust step is not needed.
  const env = { ...process.env, OUT: out, TRUST: '0', REAL_CLIENTS_HOME: located.home }
  const result = await run('bash', [located.runCase, caseDir], env)
  const dir = join(out, withHook ? 'with-hook' : 'without-hook')
  const fail = (what: string) => new Error(`codex-real: ${what} (${dir}): ${result.output.trim().split('\n').slice(-3).join(' | ')}`)
  if (result.code !== 0 || readFileSync(join(dir, 'codex.rc'), 'utf8').trim() !== '0') throw fail('the codex exec run failed')
  const time = /start=([\d.]+) end=([\d.]+)/.exec(readFileSync(join(dir, 'codex.time'), 'utf8'))
  if (!time) throw fail('no codex.time')
  const times = readFileSync(join(dir, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Date.parse((JSON.parse(line) as { t: string }).t))
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

/** One `session.run()` of the same turn on a fresh kernel with the Codex dialect; steps timed from `step/start` events. */
async function kernelRun(root: string, name: string, withHook: boolean, calls: number): Promise<RunSample> {
  const stepStart: number[] = []
  let hookRuns = 0
  let origin = now()
  const probe = definePlugin({
    name: 'bench-steps',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-steps', ({ event }) => {
        if (event.type === 'step/start' || event.type === 'turn/end') stepStart.push(since(origin) / 1e6)
        if (event.type === 'hook/run') hookRuns++
      })
    },
  })
  const dir = join(root, 'kernel-runs', name)
  const { kernel } = codexKernel({ dir, commands: withHook ? ['true'] : [], script: kernelScript(calls), plugins: [probe] })
  try {
    const session = await kernel.startSession()
    gc()
    origin = now()
    const result = await session.run('run the tool')
    const totalMs = since(origin) / 1e6
    await session.end()
    if (result.status !== 'completed') throw new Error(`codex-real: the kernel turn ended ${result.status}`)
    if (hookRuns !== (withHook ? calls : 0)) throw new Error(`codex-real: ${hookRuns} kernel hook runs, expected ${withHook ? calls : 0}`)
    // step k asks for call k; its duration runs to the next step's start (request k + 1), as in Codex's request log.
    return { withHook, totalMs, stepMs: stepStart.slice(1, calls + 1).map((t, index) => t - stepStart[index]!) }
  } finally {
    await kernel.dispose()
  }
}

const median = (values: readonly number[]) => summarize(values).median

/**
 * 90% percentile-bootstrap interval of median(a) − median(b): how far the step-median difference can be trusted when
 * single steps vary by more than what a hook adds. Seeded, so a run's numbers can be recomputed from latest.json.
 */
function medianDifferenceInterval(a: readonly number[], b: readonly number[], resamples = 2000): [number, number] {
  let seed = 0x9e3779b9
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
  const resample = (values: readonly number[]) => Array.from(values, () => values[Math.floor(random() * values.length)]!)
  const differences = Array.from({ length: resamples }, () => median(resample(a)) - median(resample(b))).sort((x, y) => x - y)
  return [differences[Math.floor(0.05 * resamples)]!, differences[Math.ceil(0.95 * resamples) - 1]!]
}

function summarizeClient(client: Client, samples: RunSample[], calls: number): ClientResult {
  const withRuns = samples.filter((sample) => sample.withHook)
  const withoutRuns = samples.filter((sample) => !sample.withHook)
  const totalWith = summarize(withRuns.map((sample) => sample.totalMs))
  const totalWithout = summarize(withoutRuns.map((sample) => sample.totalMs))
  const stepWith = summarize(withRuns.flatMap((sample) => sample.stepMs))
  const stepWithout = summarize(withoutRuns.flatMap((sample) => sample.stepMs))
  return {
    client,
    runs: { with: withRuns, without: withoutRuns },
    totalWith,
    totalWithout,
    stepWith,
    stepWithout,
    addedPerCallTotals: (totalWith.median - totalWithout.median) / calls,
    addedPerCallSteps: stepWith.median - stepWithout.median,
    addedPerCallStepsInterval: medianDifferenceInterval(
      withRuns.flatMap((sample) => sample.stepMs),
      withoutRuns.flatMap((sample) => sample.stepMs),
    ),
  }
}

export async function codexRealBench(options: { calls: number; reps: number; kernelReps: number }): Promise<Section> {
  const title = '(f) Real Codex vs the kernel: latency one trivial PreToolUse hook adds per tool call'
  const located = locate()
  if (!located.ok) {
    const skipped = `skipped: ${located.reason}`
    process.stderr.write(`${skipped}\n`)
    return { title, head: [], rows: [], notes: [skipped], data: { skipped: located.reason } }
  }
  // Hook commands are shell strings holding these paths: keep them free of spaces and symlinks.
  const base = realpathSync(tmpdir())
  const root = realpathSync(mkdtempSync(join(/\s/.test(base) ? '/tmp' : base, 'hk-bench-codex-real-')))
  try {
    const { calls } = options
    const codexSamples: RunSample[] = []
    const kernelSamples: RunSample[] = []
    // One unrecorded run of each first (disk cache, JIT), then with and without alternate, the order flipping every repetition.
    await codexRun(located, root, 'warmup-with', true, calls)
    await codexRun(located, root, 'warmup-without', false, calls)
    for (let rep = 0; rep < options.reps; rep++) {
      for (const withHook of rep % 2 === 0 ? [true, false] : [false, true]) {
        codexSamples.push(await codexRun(located, root, `${rep}-${withHook ? 'with' : 'without'}`, withHook, calls))
      }
    }
    await kernelRun(root, 'warmup-with', true, calls)
    await kernelRun(root, 'warmup-without', false, calls)
    for (let rep = 0; rep < options.kernelReps; rep++) {
      for (const withHook of rep % 2 === 0 ? [true, false] : [false, true]) {
        kernelSamples.push(await kernelRun(root, `${rep}-${withHook ? 'with' : 'without'}`, withHook, calls))
      }
    }
    const codex = summarizeClient('codex', codexSamples, calls)
    const kernel = summarizeClient('kernel', kernelSamples, calls)
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
      rows: [
        row(`real Codex ${CODEX_VERSION} (\`codex exec\`)`, codex, options.reps),
        row('kernel + Codex dialect', kernel, options.kernelReps),
        [
          'kernel / Codex',
          '',
          '',
          '',
          ratio(kernel.addedPerCallTotals, codex.addedPerCallTotals),
          '',
          ratio(kernel.addedPerCallSteps, codex.addedPerCallSteps),
          '',
        ],
      ],
      notes: [
        `One turn of K = ${calls} shell calls of \`true\`, then a message, with and without hooks.json = one PreToolUse handler \`true\` ` +
          '(matcher `Bash`). Codex: `shared/real-clients/codex/run-case.sh` (fake Responses server on 127.0.0.1, `codex exec ' +
          '--dangerously-bypass-hook-trust`); run ms is the `codex exec` process (start-up included), a tool step is the time ' +
          'between the model request that asked for the call and the next request (the fake server logs both). Kernel: scripted ' +
          'model, `tools()`, `codexHooks({ trust: "all" })`, a fresh kernel per run; run ms is `session.run()`, a tool step is ' +
          `between consecutive \`step/start\` events. One unrecorded run of each first; with and without alternate. Step medians are ` +
          `over all K steps of all runs (${options.reps * calls} per way for Codex, ${options.kernelReps * calls} for the kernel). ` +
          'The interval is a percentile bootstrap of the step-median difference; a negative "added" value, or an interval ' +
          'that holds 0, means the difference is below the noise of this machine.',
      ],
      data: { options, codexVersion: CODEX_VERSION, codex, kernel },
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
