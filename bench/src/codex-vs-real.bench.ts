import { execFileSync, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { definePlugin, ExecProcessRunner, type Plugin } from '@harness-kernel/kernel'
import { type FakeOpenAI, isMessageReply, type Reply, startFakeOpenAI } from '@harness-kernel/testing'
import { codexExecHome, withCodex } from './codex-driver-setup.js'
import { codexKernel, preToolUseHooks } from './codex-setup.js'
import { medianDifferenceInterval, type RunsByHook, runsByHook, shellCallsScript, timedKernelTurn } from './hook-latency.js'
import { fmt, gc, type Stats, summarize } from './measure.js'
import { callsDirective, codexBenchScript } from './model-scripts.js'
import { installedManifestField } from './real-client.js'
import type { Section } from './report.js'

/** The Codex `npm ci` installs (the Codex driver's pin), which `withCodex` runs. */
const CODEX_VERSION = installedManifestField('@openai/codex')

type Client = 'codex' | 'kernel' | 'kernel-in-process'

/** The turn both clients run: `calls` tool calls, each model answer `latencyMs` after its request. */
interface ModelTiming {
  calls: number
  latencyMs: number
}

/** The fake Responses server of the Codex runs, and how long it now waits before each answer. */
interface CodexServer {
  fake: FakeOpenAI
  latencyMs: number
}

/** One way of timing the model, with the runs of each client. */
interface Phase {
  latencyMs: number
  /** Runs of each client, each way. */
  reps: number
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
  /**
   * One per tool call, with the hook: how long the client's PreToolUse took, as it reports it to itself. Codex: from its
   * `hook/started` to its `hook/completed` event (its trace log's µs timestamps); kernel: from before the first
   * `tools/pre-execute` tap to after the last.
   */
  hookMs: number[]
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
  /** The PreToolUse window of every call with the hook. */
  hookWindow: Stats
}

/**
 * `calls` calls of Codex's shell tool (`exec_command`, `{"cmd":"true"}`), then a message: what the fake Responses server
 * answers a `codex exec` whose prompt holds the directive (the scripted model's side is `shellCallsScript`).
 */
const codexPrompt = (calls: number) => `run the tool ${callsDirective(calls, 'exec_command', { cmd: 'true' })}`

/**
 * One `codex exec` with a fresh HOME and CODEX_HOME (`config.toml` as the driver writes it, `hooks.json` with the hook or
 * none) against the fake Responses server; the steps from the server's request log.
 */
async function codexRun(
  bin: string,
  server: CodexServer,
  root: string,
  name: string,
  withHook: boolean,
  calls: number,
): Promise<RunSample> {
  const { workspace, env } = codexExecHome(join(root, `codex-runs-${server.latencyMs}`, name), server.fake.baseURL)
  writeFileSync(join(env.CODEX_HOME!, 'hooks.json'), `${JSON.stringify(preToolUseHooks(withHook ? ['true'] : []))}\n`)
  // Exec mode skips hooks nobody trusted without the flag. Without --json, exec reports each hook run on stderr.
  const args = ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--sandbox', 'danger-full-access']
  const from = server.fake.requests.length
  gc()
  const start = performance.now()
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(bin, [...args, '-c', 'approval_policy="never"', codexPrompt(calls)], {
      cwd: workspace,
      // Only the app server's events, which hook/started and hook/completed are, at trace level: their µs timestamps.
      env: { ...env, RUST_LOG: 'codex_app_server::outgoing_message=trace' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('close', (exit) => resolve({ code: exit, stderr }))
  })
  const totalMs = performance.now() - start
  const fail = (what: string) => new Error(`codex-real: codex exec (${name}): ${what}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`)
  if (code !== 0) throw fail(`exit code ${code}`)
  const requests = server.fake.requests.slice(from)
  const shape = requests.map((request) => request.toolCalls[0]?.name ?? 'text').join(',')
  const expected = [...Array.from({ length: calls }, () => 'exec_command'), 'text'].join(',')
  if (shape !== expected) throw fail(`replies ${shape}, expected ${expected}`)
  const hookRuns = stderr.split('\n').filter((line) => line.trim() === 'hook: PreToolUse Completed').length
  if (hookRuns !== (withHook ? calls : 0)) throw fail(`${hookRuns} completed PreToolUse hooks, expected ${withHook ? calls : 0}`)
  const hookMs = hookWindows(stderr)
  if (hookMs.length !== hookRuns) throw fail(`${hookMs.length} hook/started → hook/completed pairs in the trace, expected ${hookRuns}`)
  return { withHook, totalMs, stepMs: requests.slice(1).map((request, index) => request.at - requests[index]!.at), hookMs }
}

const HOOK_EVENT =
  /^\d{4}-\d\d-\d\dT(\d\d):(\d\d):(\d\d\.\d+)Z\s+TRACE codex_app_server::outgoing_message: app-server event: hook\/(started|completed)\b/

/** Codex's own hook windows, ms: each `hook/started` to the `hook/completed` after it, from its trace lines. */
function hookWindows(stderr: string): number[] {
  const windows: number[] = []
  let started: number | undefined
  for (const line of stderr.split('\n')) {
    const event = HOOK_EVENT.exec(line)
    if (!event) continue
    const ms = (Number(event[1]) * 3600 + Number(event[2]) * 60 + Number(event[3])) * 1000
    if (event[4] === 'started') started = ms
    else if (started !== undefined) {
      // Across midnight the clock starts again.
      windows.push(ms >= started ? ms - started : ms + 86_400_000 - started)
      started = undefined
    }
  }
  return windows
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
  const hookMs: number[] = []
  const window = preExecuteWindow((ms) => {
    if (withHook) hookMs.push(ms)
  })
  const totalMs = await timedKernelTurn(
    'codex-real',
    (probe) => codexKernel({ dir, commands, script, plugins: [probe, window], ...processRunner }).kernel,
    (event, at) => {
      if (event.type === 'step/start' || event.type === 'turn/end') stepStart.push(at())
      if (event.type === 'hook/run') hookRuns++
    },
  )
  if (hookRuns !== (withHook ? calls : 0)) throw new Error(`codex-real: ${hookRuns} kernel hook runs, expected ${withHook ? calls : 0}`)
  // step k asks for call k; its duration runs to the next step's start (request k + 1), as in Codex's request log.
  return { withHook, totalMs, stepMs: stepStart.slice(1, calls + 1).map((t, index) => t - stepStart[index]!), hookMs }
}

/** Times the kernel's PreToolUse: from before the first `tools/pre-execute` tap to after the last. */
function preExecuteWindow(onWindow: (ms: number) => void): Plugin {
  return definePlugin({
    name: 'bench-pre-execute-window',
    setup(kernel) {
      let start = 0
      kernel.hooks.toolPreExecute.tap({ name: 'bench-window-start', stage: -1e9 }, (decision) => {
        start = performance.now()
        return decision
      })
      kernel.hooks.toolPreExecute.tap({ name: 'bench-window-end', stage: 1e9 }, (decision) => {
        onWindow(performance.now() - start)
        return decision
      })
    },
  })
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
    hookWindow: summarize(runs.with.flatMap((sample) => sample.hookMs)),
  }
}

/**
 * The same turn through the real Codex and the kernel, with and without one trivial PreToolUse hook, in each `phases`
 * (the model answering at once, or after `latencyMs`).
 */
export async function codexRealBench(options: { calls: number; phases: Phase[] }): Promise<Section> {
  const title = '(f) Real Codex vs the kernel: latency one trivial PreToolUse hook adds per tool call'
  return withCodex(title, 'hk-bench-codex-real-', async (bin, root) => {
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
    if (!version.includes(CODEX_VERSION)) throw new Error(`codex-real: ${bin} is "${version}", not codex-cli ${CODEX_VERSION}`)
    const { calls } = options
    const server: CodexServer = { fake: await startFakeOpenAI({ script: (request) => delayed(codexBenchScript(request)) }), latencyMs: 0 }
    const delayed = (reply: Reply): Reply =>
      server.latencyMs > 0 && isMessageReply(reply) ? { ...reply, delayMs: server.latencyMs } : reply
    const results: PhaseResult[] = []
    try {
      for (const phase of options.phases) {
        server.latencyMs = phase.latencyMs
        results.push(await measurePhase(bin, server, root, { calls, latencyMs: phase.latencyMs }, phase))
      }
    } finally {
      await server.fake.close()
    }
    const row = (label: string, result: ClientResult, reps: number) => [
      label,
      `${reps} × ${calls}`,
      fmt(result.totalWithout.median),
      fmt(result.totalWith.median),
      fmt(result.addedPerCallTotals, 1),
      `${fmt(result.stepWithout.median, 1)} → ${fmt(result.stepWith.median, 1)}`,
      fmt(result.addedPerCallSteps, 1),
      `${fmt(result.addedPerCallStepsInterval[0], 1)} … ${fmt(result.addedPerCallStepsInterval[1], 1)}`,
      `${fmt(result.hookWindow.median, 2)} (p99 ${fmt(result.hookWindow.p99, 1)})`,
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
      ratio(kernel.hookWindow.median, codex.hookWindow.median),
    ]
    const phaseRows = ({ latencyMs, reps, codex, kernel, kernelInProcess }: PhaseResult) => {
      const model = latencyMs > 0 ? `model answers after ${latencyMs} ms` : 'model answers at once'
      return [
        row(`${model}: real Codex ${CODEX_VERSION} (\`codex exec\`)`, codex, reps),
        row(`${model}: kernel + Codex dialect (process launcher, the default)`, kernel, reps),
        row(`${model}: kernel + Codex dialect, in-process runner`, kernelInProcess, reps),
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
        'PreToolUse ms, as the client times it (median)',
      ],
      rows: results.flatMap(phaseRows),
      notes: [
        `One turn of K = ${calls} shell calls of \`true\`, then a message, with and without hooks.json = one PreToolUse handler \`true\` ` +
          '(matcher `Bash`). Codex: `codex exec --dangerously-bypass-hook-trust` (the `@openai/codex` the Codex driver installs), ' +
          "a fresh HOME and CODEX_HOME per run, its `exec_command` calling `true`, against `@harness-kernel/testing`'s fake " +
          'Responses server on 127.0.0.1 in this process; run ms is the `codex exec` process (start-up included), a tool step is ' +
          'the time between the model request that asked for the call and the next request (as the server received them, ' +
          '`performance.now()`). Kernel: scripted ' +
          'model, `tools()`, `codexHooks({ trust: "all" })`, a fresh kernel per run, its processes started by the process launcher ' +
          '(the default) or in its own process (`ExecProcessRunner`); run ms is `session.run()`, a tool step is ' +
          'between consecutive `step/start` events. One unrecorded run of each of the six (three clients, with and without) first, ' +
          'then each once per repetition in a rotating order. Step medians are ' +
          'over all K steps of all runs. The interval is a percentile bootstrap of the step-median difference; a negative "added" ' +
          'value, or an interval that holds 0, means the difference is below the noise of this machine.',
        'The last column times the hook inside each client, over every call with it: Codex from its `hook/started` to its ' +
          '`hook/completed` app-server event (`RUST_LOG=codex_app_server::outgoing_message=trace`, µs timestamps; set for ' +
          'every Codex run), the kernel from before the first `tools/pre-execute` tap to after the last. It holds what a ' +
          "hook costs without a whole tool step's noise (a Codex step varies by ±10 ms, and from one `codex exec` process " +
          'to the next), but not what either client does around it.',
        "A model that answers after some time (the fake server's `delayMs` for Codex, the scripted model's `delayMs` for " +
          'the kernel, before every answer) is what a real one does. While it thinks, the kernel starts the next hook shell ' +
          '(docs/decisions.md, 58); a model that answers at once leaves no such time, and that fork + exec then runs beside the ' +
          "tool's, which on this machine slows both (two loops of `bash -c true` side by side: 7.8 against 4.5 ms each).",
      ],
      data: { calls, codexVersion: CODEX_VERSION, phases: results },
    }
  })
}

async function measurePhase(bin: string, server: CodexServer, root: string, model: ModelTiming, phase: Phase): Promise<PhaseResult> {
  const { calls } = model
  const runners: Record<Client, (name: string, withHook: boolean) => Promise<RunSample>> = {
    codex: (name, withHook) => codexRun(bin, server, root, name, withHook, calls),
    kernel: (name, withHook) => kernelRun(root, name, withHook, model, false),
    'kernel-in-process': (name, withHook) => kernelRun(root, name, withHook, model, true),
  }
  const variants = (Object.keys(runners) as Client[]).flatMap((client) => [true, false].map((withHook) => ({ client, withHook })))
  const samples: Record<Client, RunSample[]> = { codex: [], kernel: [], 'kernel-in-process': [] }
  // One unrecorded run of each first (disk cache, JIT). Then every variant once per repetition, in an order that rotates,
  // so that the machine's drift over the minutes of a phase falls on Codex and the kernel, with and without, alike.
  for (const { client, withHook } of variants) await runners[client](`warmup-${withHook ? 'with' : 'without'}`, withHook)
  for (let rep = 0; rep < phase.reps; rep++) {
    for (let i = 0; i < variants.length; i++) {
      const { client, withHook } = variants[(rep + i) % variants.length]!
      samples[client].push(await runners[client](`${rep}-${withHook ? 'with' : 'without'}`, withHook))
    }
  }
  return {
    ...phase,
    codex: summarizeClient('codex', samples.codex, calls),
    kernel: summarizeClient('kernel', samples.kernel, calls),
    kernelInProcess: summarizeClient('kernel-in-process', samples['kernel-in-process'], calls),
  }
}
