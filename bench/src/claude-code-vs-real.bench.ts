import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { claudeExecutable } from '@harness-kernel/driver-claude-code'
import { claudeCodeKernel, preToolUseSettings } from './claude-code-setup.js'
import { alternateRuns, medianDifferenceInterval, type RunsByHook, runsByHook, shellCallsScript, timedKernelTurn } from './hook-latency.js'
import { fmt, type Stats, summarize } from './measure.js'
import {
  installedManifestField,
  jsonLines,
  type LocatedClient,
  locateClient,
  realClientsHome,
  runCapturing,
  runFailure,
  withRealClient,
} from './real-client.js'
import type { Section } from './report.js'

/** The Claude Code `npm ci` installs with the Agent SDK (the Claude Code driver's pin). */
const CLAUDE_CODE_VERSION = installedManifestField('@anthropic-ai/claude-agent-sdk', 'claudeCodeVersion')

type Client = 'claude-code' | 'kernel'

/** One run of a K-tool-call turn. */
interface RunSample {
  withHook: boolean
  /** Claude Code: the `claude -p` process, start to exit; kernel: `session.run()`. */
  totalMs: number
  /** One per tool call: from the model request that asked for the call to the next request. */
  stepMs: number[]
  /**
   * One per tool call: from the model's tool call being logged (Claude Code: the `assistant` message's timestamp in the
   * stream; kernel: the assistant `message` event) to its result (the `user` tool_result's timestamp; `tool/result`).
   * The PreToolUse hooks and the tool run in it; the model request and its streaming do not.
   */
  windowMs: number[]
}

/** One per-call measure, with and without the hook. */
export interface Measure {
  without: Stats
  with: Stats
  /** median with − median without. */
  added: number
  /** 90% bootstrap interval of `added`. */
  interval: [number, number]
}

export interface ClientResult extends RunsByHook<RunSample> {
  client: Client
  /** (median total with − median total without) / K. */
  addedPerCallTotals: number
  steps: Measure
  windows: Measure
}

/** The native `claude`: `CLAUDE_BIN`, else the one `npm ci` installed, else the shared real-clients install's. */
function claudeBin(home: string): string {
  if (process.env.CLAUDE_BIN) return process.env.CLAUDE_BIN
  try {
    return claudeExecutable()
  } catch {}
  const base = join(home, 'node_modules', '@anthropic-ai')
  const platform = `${process.platform}-${process.arch}`
  const others = existsSync(base)
    ? readdirSync(base)
        .filter((name) => name.startsWith('claude-agent-sdk-'))
        .map((name) => join(base, name, 'claude'))
    : []
  const candidates = [
    join(base, `claude-agent-sdk-${platform}`, 'claude'),
    join(base, `claude-agent-sdk-${platform}-musl`, 'claude'),
    ...others,
  ]
  return candidates.find((file) => existsSync(file)) ?? candidates[0]!
}

function locate() {
  const home = realClientsHome()
  return locateClient({
    client: 'Claude Code',
    home,
    bin: claudeBin(home),
    versionOk: (version) => version.startsWith(CLAUDE_CODE_VERSION),
    expected: `Claude Code ${CLAUDE_CODE_VERSION}`,
    script: ['claude-code', 'run-cli.sh'],
  })
}

/** `calls` `[[bash:true]]` directives: the fake Messages server answers each request with the next one as a Bash call, then text. */
const claudePrompt = (calls: number) => `Run these. ${Array.from({ length: calls }, () => '[[bash:true]]').join(' ')}`

/** One `claude -p` through run-cli.sh; timings from its rc file and the fake server's request summary. */
async function claudeRun(located: LocatedClient, root: string, name: string, withHook: boolean, calls: number): Promise<RunSample> {
  const settings = join(root, 'settings', withHook ? 'with-hook.json' : 'without-hook.json')
  if (!existsSync(settings)) {
    mkdirSync(join(root, 'settings'), { recursive: true })
    writeFileSync(settings, `${JSON.stringify(preToolUseSettings(withHook ? [['true']] : []))}\n`)
  }
  // One OUT for all runs: they share its state/ (project, CLAUDE_CONFIG_DIR, HOME) as one user's runs would.
  const out = join(root, 'claude-runs')
  const env = {
    ...process.env,
    OUT: out,
    PROJECT_SETTINGS: settings,
    REAL_CLIENTS_HOME: located.home,
    CLAUDE_BIN: located.bin,
    CLAUDE_TIMEOUT: '180',
  }
  const result = await runCapturing('bash', [located.script, name, claudePrompt(calls), '--dangerously-skip-permissions'], env)
  const dir = join(out, name)
  const fail = runFailure('claude-code-real', dir, result.output)
  const rc = existsSync(join(dir, 'rc')) ? readFileSync(join(dir, 'rc'), 'utf8') : ''
  const time = /^rc=0 start=([\d.]+) end=([\d.]+)/.exec(rc)
  if (result.code !== 0 || !time) throw fail(`the claude -p run failed (${rc.trim() || 'no rc file'})`)
  const times = (jsonLines(join(dir, 'server', 'summary.jsonl')) as { t: string; kind: string }[])
    .filter((request) => request.kind === 'main')
    .map((request) => Date.parse(request.t))
  if (times.length !== calls + 1) throw fail(`${times.length} main-loop model requests, expected ${calls + 1}`)
  const stream = jsonLines(join(dir, 'stream.jsonl')) as {
    type?: string
    subtype?: string
    hook_event?: string
    outcome?: string
    timestamp?: string
    message?: { content?: unknown }
  }[]
  const hookRuns = stream.filter((m) => m.subtype === 'hook_response' && m.hook_event === 'PreToolUse' && m.outcome === 'success').length
  if (hookRuns !== (withHook ? calls : 0)) throw fail(`${hookRuns} successful PreToolUse hooks, expected ${withHook ? calls : 0}`)
  const toolResults = stream
    .filter((m) => m.type === 'user' && Array.isArray(m.message?.content))
    .flatMap((m) => m.message!.content as { type?: string; is_error?: boolean }[])
    .filter((block) => block.type === 'tool_result')
  const toolErrors = toolResults.filter((block) => block.is_error === true).length
  if (toolResults.length !== calls || toolErrors > 0)
    throw fail(`${toolResults.length} tool results (${toolErrors} errors), expected ${calls} without`)
  if (!stream.some((m) => m.type === 'result' && m.subtype === 'success')) throw fail('no successful result in stream.jsonl')
  const asked = new Map<string, number>()
  const windowMs: number[] = []
  for (const message of stream) {
    const blocks = Array.isArray(message.message?.content)
      ? (message.message.content as { type?: string; id?: string; tool_use_id?: string }[])
      : []
    const at = Date.parse(message.timestamp ?? '')
    for (const block of blocks) {
      if (message.type === 'assistant' && block.type === 'tool_use' && block.id) asked.set(block.id, at)
      const start = message.type === 'user' && block.type === 'tool_result' && block.tool_use_id ? asked.get(block.tool_use_id) : undefined
      if (start !== undefined) windowMs.push(at - start)
    }
  }
  if (windowMs.length !== calls || windowMs.some(Number.isNaN))
    throw fail(`${windowMs.length} timed tool_use → tool_result pairs, expected ${calls}`)
  return {
    withHook,
    totalMs: (Number(time[2]) - Number(time[1])) * 1000,
    stepMs: times.slice(1).map((t, index) => t - times[index]!),
    windowMs,
  }
}

/** One `session.run()` of the same turn on a fresh kernel with the Claude Code dialect; steps from `step/start` events. */
async function kernelRun(root: string, name: string, withHook: boolean, calls: number): Promise<RunSample> {
  const stepStart: number[] = []
  const asked: number[] = []
  const answered: number[] = []
  let hookRuns = 0
  const dir = join(root, 'kernel-runs', name)
  const groups = withHook ? [['true']] : []
  const totalMs = await timedKernelTurn(
    'claude-code-real',
    (probe) => claudeCodeKernel({ dir, groups, script: shellCallsScript(calls), plugins: [probe] }).kernel,
    (event, at) => {
      if (event.type === 'step/start' || event.type === 'turn/end') stepStart.push(at())
      if (event.type === 'message' && event.message.role === 'assistant') asked.push(at())
      if (event.type === 'tool/result') answered.push(at())
      if (event.type === 'hook/run' && event.event === 'PreToolUse' && event.status === 'completed') hookRuns++
    },
  )
  if (hookRuns !== (withHook ? calls : 0))
    throw new Error(`claude-code-real: ${hookRuns} kernel hook runs, expected ${withHook ? calls : 0}`)
  if (answered.length !== calls || asked.length !== calls + 1)
    throw new Error(`claude-code-real: ${asked.length} answers, ${answered.length} results`)
  // step k asks for call k; its duration runs to the next step's start (request k + 1), as in the fake server's log.
  return {
    withHook,
    totalMs,
    stepMs: stepStart.slice(1, calls + 1).map((t, index) => t - stepStart[index]!),
    windowMs: answered.map((t, index) => t - asked[index]!),
  }
}

function summarizeClient(client: Client, samples: RunSample[], calls: number): ClientResult {
  const { runs, totalWith, totalWithout } = runsByHook(samples)
  const measure = (of: (sample: RunSample) => number[]): Measure => {
    const withValues = runs.with.flatMap(of)
    const withoutValues = runs.without.flatMap(of)
    const withStats = summarize(withValues)
    const withoutStats = summarize(withoutValues)
    return {
      without: withoutStats,
      with: withStats,
      added: withStats.median - withoutStats.median,
      interval: medianDifferenceInterval(withValues, withoutValues),
    }
  }
  return {
    client,
    runs,
    totalWith,
    totalWithout,
    addedPerCallTotals: (totalWith.median - totalWithout.median) / calls,
    steps: measure((sample) => sample.stepMs),
    windows: measure((sample) => sample.windowMs),
  }
}

export async function claudeCodeRealBench(options: { calls: number; reps: number; kernelReps: number }): Promise<Section> {
  const title = '(j) Real Claude Code vs the kernel: latency one trivial PreToolUse hook adds per tool call'
  return withRealClient(title, locate(), 'hk-bench-claude-code-real-', async (located, root) => {
    const { calls } = options
    // One unrecorded run of each first (disk cache, Claude Code's first start in a fresh config dir), then with and
    // without alternate, the order flipping every repetition.
    const claudeSamples = await alternateRuns(options.reps, (name, withHook) => claudeRun(located, root, name, withHook, calls))
    const kernelSamples = await alternateRuns(options.kernelReps, (name, withHook) => kernelRun(root, name, withHook, calls))
    const claude = summarizeClient('claude-code', claudeSamples, calls)
    const kernel = summarizeClient('kernel', kernelSamples, calls)
    const pair = (measure: Measure) => `${fmt(measure.without.median, 1)} → ${fmt(measure.with.median, 1)}`
    const added = (measure: Measure) => `${fmt(measure.added, 1)} (${fmt(measure.interval[0], 1)} … ${fmt(measure.interval[1], 1)})`
    const row = (label: string, result: ClientResult, reps: number) => [
      label,
      `${reps} × ${calls}`,
      `${fmt(result.totalWithout.median)} → ${fmt(result.totalWith.median)}`,
      fmt(result.addedPerCallTotals, 1),
      pair(result.steps),
      added(result.steps),
      pair(result.windows),
      added(result.windows),
    ]
    const ratio = (a: number, b: number) => (b > 0 ? `${fmt(a / b, 2)}×` : "n/a (Claude Code's is ≤ 0)")
    const ratios = (a: { without: Stats; with: Stats }, b: { without: Stats; with: Stats }) =>
      `${fmt(a.without.median / b.without.median, 2)}× → ${fmt(a.with.median / b.with.median, 2)}×`
    return {
      title,
      head: [
        'client',
        'runs × tool calls (each way)',
        'run ms (median): without → with hook',
        'added ms per call: (with − without) / K',
        'tool step ms (median): without → with',
        'added ms per call: step medians (90% interval)',
        'tool window ms (median): without → with',
        'added ms per call: window medians (90% interval)',
      ],
      rows: [
        row(`real Claude Code ${CLAUDE_CODE_VERSION} (\`claude -p\`)`, claude, options.reps),
        row('kernel + Claude Code dialect', kernel, options.kernelReps),
        [
          'kernel / Claude Code',
          '',
          ratios({ without: kernel.totalWithout, with: kernel.totalWith }, { without: claude.totalWithout, with: claude.totalWith }),
          ratio(kernel.addedPerCallTotals, claude.addedPerCallTotals),
          ratios(kernel.steps, claude.steps),
          ratio(kernel.steps.added, claude.steps.added),
          ratios(kernel.windows, claude.windows),
          ratio(kernel.windows.added, claude.windows.added),
        ],
      ],
      notes: [
        `One turn of K = ${calls} Bash calls of \`true\`, then a text answer, with and without the project's ` +
          '`.claude/settings.json` = one PreToolUse group (matcher `Bash`) with one command handler `true`. Claude Code: ' +
          '`shared/real-clients/claude-code/run-cli.sh` (`claude -p --dangerously-skip-permissions` against the fake Messages ' +
          `server on 127.0.0.1; the prompt holds K \`[[bash:true]]\` directives; \`PROJECT_SETTINGS\` = the settings above; one ` +
          'OUT for all runs, in a temp dir). Every run is checked: exit 0, K + 1 main-loop requests, K tool results without ' +
          'error, K successful PreToolUse `hook_response` events in the stream with the hook (0 without). Kernel: scripted model, ' +
          '`tools()`, `claudeCodeHooks({ configDir, managedSettingsPath: false })` with the same settings file, a fresh kernel ' +
          'per run. One unrecorded run of each first; with and without alternate.',
        'Run ms: the `claude` process (start-up included) or `session.run()`. Tool step: from the main-loop model request that ' +
          'asked for a call to the next one (Claude Code: the fake server logs both, to the ms; kernel: consecutive `step/start` ' +
          "events). Tool window: from the model's tool call being logged to its result (Claude Code: the timestamps of the " +
          '`assistant` tool_use and the `user` tool_result messages in its stream, to the ms; kernel: the assistant `message` ' +
          'and `tool/result` events): the hook and the tool run in it, the model request does not, so it is the less noisy ' +
          `measure. Medians are over all K calls of all runs (${options.reps * calls} per way for Claude Code, ` +
          `${options.kernelReps * calls} for the kernel); the intervals are percentile bootstraps of the median differences. ` +
          'A negative "added" value, or an interval that holds 0, means the difference is below the noise of this machine.',
      ],
      data: { options, claudeCodeVersion: CLAUDE_CODE_VERSION, claudeCode: claude, kernel },
    }
  })
}
