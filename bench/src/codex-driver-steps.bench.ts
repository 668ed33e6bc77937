import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { definePlugin, type ToolResultBlock } from '@harness-kernel/kernel'
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '@harness-kernel/testing'
import { codexDriverKernel, codexExecHome, noopTool, sameAsDriver, withCodex } from './codex-driver-setup.js'
import { medianDifferenceInterval } from './hook-latency.js'
import { fmt, gc, perCall, type Stats, summarize } from './measure.js'
import { callsDirective, codexBenchScript } from './model-scripts.js'
import { rawSpawn } from './raw-spawn.js'
import type { Section } from './report.js'

/**
 * Where one tool step goes, ms. The driver: the kernel's `tools/pre-execute` and `tools/post-execute`; `codex exec`: its
 * `--json` `item.completed` event for the `command_execution` item, timed as it reaches this process. (Codex emits that
 * item's `item.started` only a few ms before `item.completed`, at the end of its `exec_command`'s work, so it does not
 * split Codex's side.)
 */
interface Phases {
  /** The model request that asks for the call → the tool's result (driver: `tools/post-execute`; exec: `item.completed`). */
  toResult: number
  /** The tool's result → the next model request. */
  toNext: number
  /** Driver only: the model request → `tools/pre-execute` (Codex's `item/tool/call` reached the kernel). */
  toTool?: number
  /** Driver only: the kernel's tool call, `tools/pre-execute` → `tools/post-execute`. */
  tool?: number
  /** Driver only: `tools/post-execute` → the `tool/result` event (the driver logged the result; it answers Codex next). */
  logged?: number
  /** Exec only: `item.started` → `item.completed` of the command. */
  startedToCompleted?: number
}

/** One turn (driver) or one `codex exec` run, with `calls` tool calls. */
interface StepRun {
  calls: number
  /** Driver: `session.run()`; `codex exec`: spawn to exit. */
  totalMs: number
  /** From each model request that asked for a tool call to the next request (the fake server's clock). */
  stepMs: number[]
  phases: Phases[]
  /** The request bodies' sizes, bytes. */
  requestBytes: number[]
}

type Client = 'driver' | 'driver, no-op tool' | 'codex exec'

export interface ClientSteps {
  client: Client
  one: Stats
  many: Stats
  /** (median K-call − median 1-call) / (K − 1), ms. */
  slope: number
  /** 90% bootstrap interval of the slope. */
  slopeInterval: [number, number]
  /** Steps 2…K of the K-call runs (a run's first step is left out, as in the Claude Code bench), ms. */
  steps: Stats
  /** Medians of each phase over the same steps. */
  phases: Record<keyof Phases, number | undefined>
  /** The first request's body (bytes, median). */
  firstRequestBytes: number
  runs: StepRun[]
}

const prompt = (calls: number, tool: string, args: Record<string, unknown>) =>
  `Run \`true\` ${calls} time(s), one call after the other. ${callsDirective(calls, tool, args)}`

/** `1, K, K, 1, 1, K, …`: each rep runs both, the order flipping every rep. */
const schedule = (reps: number, calls: number) => Array.from({ length: reps }, (_, rep) => (rep % 2 === 0 ? [1, calls] : [calls, 1])).flat()

/** The requests of one turn or run: K calls of `tool`, then a text; throws otherwise. */
function requestsSince(server: FakeOpenAI, from: number, calls: number, tool: string, what: string): RecordedRequest[] {
  const requests = server.requests.slice(from)
  const shape = requests.map((request) => request.toolCalls[0]?.name ?? 'text').join(',')
  const expected = [...Array.from({ length: calls }, () => tool), 'text'].join(',')
  if (shape !== expected) throw new Error(`codex-driver-steps: ${what}: replies ${shape}, expected ${expected}`)
  return requests
}

const stepsOf = (requests: RecordedRequest[]) => requests.slice(1).map((request, i) => request.at - requests[i]!.at)

function summarizeClient(client: Client, runs: StepRun[], calls: number): ClientSteps {
  const one = runs.filter((run) => run.calls === 1).map((run) => run.totalMs)
  const many = runs.filter((run) => run.calls === calls).map((run) => run.totalMs)
  const [low, high] = medianDifferenceInterval(many, one)
  const oneStats = summarize(one)
  const manyStats = summarize(many)
  const marginal = runs.filter((run) => run.calls === calls)
  const phases = marginal.flatMap((run) => run.phases.slice(1))
  const phase = (key: keyof Phases) => {
    const values = phases.map((entry) => entry[key]).filter((value): value is number => value !== undefined)
    return values.length > 0 ? summarize(values).median : undefined
  }
  return {
    client,
    one: oneStats,
    many: manyStats,
    slope: (manyStats.median - oneStats.median) / (calls - 1),
    slopeInterval: [low / (calls - 1), high / (calls - 1)],
    steps: summarize(marginal.flatMap((run) => run.stepMs.slice(1))),
    phases: {
      toResult: phase('toResult'),
      toNext: phase('toNext'),
      toTool: phase('toTool'),
      tool: phase('tool'),
      logged: phase('logged'),
      startedToCompleted: phase('startedToCompleted'),
    },
    firstRequestBytes: summarize(runs.map((run) => run.requestBytes[0]!)).median,
    runs,
  }
}

/**
 * The driver: a session (one `codex app-server`, one thread) per rep, kept warm by an unrecorded 1-call turn, then a
 * 1-call and a K-call turn in either order. The model calls the kernel's `shell` (`true`), or `noop`. Also raw spawns
 * from this process while Codex runs beside it.
 */
async function driverRuns(
  root: string,
  server: FakeOpenAI,
  calls: number,
  reps: number,
  noop: boolean,
): Promise<{ runs: StepRun[]; rssMb: number; rawSpawnMs: Stats }> {
  let marks: Record<'pre' | 'post' | 'result', number[]> = { pre: [], post: [], result: [] }
  const probe = definePlugin({
    name: 'bench-steps',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap('bench-steps', (decision) => {
        marks.pre.push(performance.now())
        return decision
      })
      kernel.hooks.toolPostExecute.tap('bench-steps', (decision) => {
        marks.post.push(performance.now())
        return decision
      })
      kernel.hooks.sessionEvent.tap('bench-steps', ({ event }) => {
        if (event.type === 'tool/result') marks.result.push(performance.now())
      })
    },
  })
  const { kernel, workspace } = await codexDriverKernel({
    dir: join(root, noop ? 'driver-noop' : 'driver'),
    baseUrl: server.baseURL,
    plugins: noop ? [noopTool, probe] : [probe],
  })
  const tool = noop ? 'noop' : 'shell'
  try {
    const runs: StepRun[] = []
    let rss = 0
    let rawSpawnMs: Stats | undefined
    for (let rep = 0; rep < reps; rep++) {
      const session = await kernel.startSession()
      for (const [index, count] of [1, ...(rep % 2 === 0 ? [1, calls] : [calls, 1])].entries()) {
        const from = server.requests.length
        marks = { pre: [], post: [], result: [] }
        gc()
        const start = performance.now()
        const result = await session.run(prompt(count, tool, { command: 'true' }))
        const totalMs = performance.now() - start
        rss = Math.max(rss, process.memoryUsage().rss)
        if (result.status !== 'completed')
          throw new Error(`codex-driver-steps: a driver turn ended ${result.status}: ${result.error ?? ''}`)
        const results = result.messages
          .flatMap((message) => message.content)
          .filter((block): block is ToolResultBlock => block.type === 'tool_result')
        if (results.length !== count || results.some((block) => block.isError))
          throw new Error(
            `codex-driver-steps: ${results.length} tool results in a driver turn (errors among them?), expected ${count} without`,
          )
        const requests = requestsSince(server, from, count, tool, 'a driver turn')
        for (const [name, values] of Object.entries(marks)) {
          if (values.length !== count)
            throw new Error(`codex-driver-steps: ${values.length} ${name} marks in a driver turn, expected ${count}`)
        }
        if (rep === 0 && index === 0) sameAsDriver(workspace, session.id, server.baseURL)
        if (index === 0) continue
        runs.push({
          calls: count,
          totalMs,
          stepMs: stepsOf(requests),
          phases: Array.from({ length: count }, (_, i) => ({
            toResult: marks.post[i]! - requests[i]!.at,
            toNext: requests[i + 1]!.at - marks.post[i]!,
            toTool: marks.pre[i]! - requests[i]!.at,
            tool: marks.post[i]! - marks.pre[i]!,
            logged: marks.result[i]! - marks.post[i]!,
          })),
          requestBytes: requests.map((request) => request.bytes),
        })
      }
      // What a process costs this process now (the driver loaded, Codex running beside it): raw spawns of
      // `/bin/bash -c true`, as the kernel's shell tool runs its command.
      rawSpawnMs ??= (await perCall({ raw: rawSpawn('/bin/bash') }, { warmup: 5, samples: 40 })).raw!.wallMs
      await session.end()
    }
    return { runs, rssMb: rss / 2 ** 20, rawSpawnMs: rawSpawnMs! }
  } finally {
    await kernel.dispose()
  }
}

interface ExecEvent {
  at: number
  type?: string
  item?: { type?: string; exit_code?: number | null; status?: string }
}

/**
 * `codex exec` alone: a fresh process per run, Codex's own `exec_command` (`{"cmd":"true"}`), no sandbox, no approvals;
 * its runs share one HOME and CODEX_HOME (the driver's `config.toml`).
 */
async function execRuns(bin: string, root: string, server: FakeOpenAI, calls: number, reps: number): Promise<StepRun[]> {
  const { workspace, env } = codexExecHome(join(root, 'exec'), server.baseURL)
  const args = (count: number) => [
    'exec',
    '--skip-git-repo-check',
    '--json',
    '--sandbox',
    'danger-full-access',
    '-c',
    'approval_policy="never"',
    prompt(count, 'exec_command', { cmd: 'true' }),
  ]
  const run = async (count: number): Promise<StepRun> => {
    const from = server.requests.length
    gc()
    const events: ExecEvent[] = []
    const start = performance.now()
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(bin, args(count), { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let buffer = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const at = performance.now()
        buffer += chunk
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const line = buffer.slice(0, end).trim()
          buffer = buffer.slice(end + 1)
          if (line.startsWith('{')) events.push({ at, ...(JSON.parse(line) as Omit<ExecEvent, 'at'>) })
        }
      })
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
      })
      child.once('error', reject)
      child.once('close', (exit) => resolve({ code: exit, stderr }))
    })
    const totalMs = performance.now() - start
    const fail = (what: string) => new Error(`codex-driver-steps: codex exec: ${what}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`)
    if (code !== 0) throw fail(`exit code ${code}`)
    if (!events.some((event) => event.type === 'turn.completed')) throw fail('no turn.completed')
    const commands = (type: string) => events.filter((event) => event.type === type && event.item?.type === 'command_execution')
    const started = commands('item.started')
    const completed = commands('item.completed')
    if (started.length !== count || completed.length !== count || completed.some((event) => event.item?.exit_code !== 0))
      throw fail(`${started.length} commands started, ${completed.length} completed (not all exit 0?), expected ${count}`)
    const requests = requestsSince(server, from, count, 'exec_command', 'a codex exec run')
    return {
      calls: count,
      totalMs,
      stepMs: stepsOf(requests),
      phases: Array.from({ length: count }, (_, i) => ({
        toResult: completed[i]!.at - requests[i]!.at,
        toNext: requests[i + 1]!.at - completed[i]!.at,
        startedToCompleted: completed[i]!.at - started[i]!.at,
      })),
      requestBytes: requests.map((request) => request.bytes),
    }
  }
  await run(1)
  await run(calls)
  const runs: StepRun[] = []
  for (const count of schedule(reps, calls)) runs.push(await run(count))
  return runs
}

/**
 * Per tool step, the Codex driver against `codex exec` alone on the same fake Responses API: turns of 1 and of K
 * sequential tool calls of `true`, and the slope between them. The driver runs the kernel's `shell` as a Codex dynamic
 * tool (or a no-op kernel tool); `codex exec` its own `exec_command`.
 */
export async function codexDriverStepsBench(options: { calls: number; reps: number; execReps: number }): Promise<Section> {
  const title = '(o) Codex driver vs `codex exec`: time per tool step'
  return withCodex(title, 'hk-bench-codex-steps-', async (bin, root) => {
    const { calls } = options
    const server = await startFakeOpenAI({ script: codexBenchScript })
    try {
      const driverSide = await driverRuns(root, server, calls, options.reps, false)
      const driver = summarizeClient('driver', driverSide.runs, calls)
      const noop = summarizeClient('driver, no-op tool', (await driverRuns(root, server, calls, options.reps, true)).runs, calls)
      const exec = summarizeClient('codex exec', await execRuns(bin, root, server, calls, options.execReps), calls)
      const ratio = (a: number | undefined, b: number | undefined) =>
        a !== undefined && b !== undefined && b > 0 ? `${fmt(a / b, 2)}×` : ''
      const ms = (value: number | undefined) => (value === undefined ? '' : fmt(value, 1))
      const row = (label: string, result: ClientSteps, reps: number) => [
        label,
        `${reps} + ${reps}`,
        fmt(result.one.median),
        fmt(result.many.median),
        `${fmt(result.slope, 1)} (${fmt(result.slopeInterval[0], 1)} … ${fmt(result.slopeInterval[1], 1)})`,
        `${fmt(result.steps.median, 1)} (p99 ${fmt(result.steps.p99, 1)})`,
        fmt(result.firstRequestBytes),
      ]
      const ratioRow = (label: string, a: ClientSteps) => [
        label,
        '',
        ratio(a.one.median, exec.one.median),
        ratio(a.many.median, exec.many.median),
        ratio(a.slope, exec.slope),
        ratio(a.steps.median, exec.steps.median),
        '',
      ]
      const phaseRow = (label: string, key: keyof Phases) =>
        `| ${label} | ${ms(driver.phases[key])} | ${ms(noop.phases[key])} | ${ms(exec.phases[key])} | ${ratio(driver.phases[key], exec.phases[key])} |`
      const breakdown = [
        'Where a tool step goes (median ms over steps 2…K of the K-call runs; the driver: the kernel’s tool points; ' +
          '`codex exec`: its `--json` `command_execution` events as they reach this process):',
        '',
        '| phase | driver | driver, no-op tool | `codex exec` | driver / `codex exec` |',
        '| --- | ---: | ---: | ---: | ---: |',
        phaseRow('model request → the tool’s result (`tools/post-execute`; `item.completed`)', 'toResult'),
        phaseRow('… of which model request → `tools/pre-execute` (Codex’s `item/tool/call` reached the kernel)', 'toTool'),
        phaseRow('… of which the kernel’s tool call (`tools/pre-execute` → `tools/post-execute`)', 'tool'),
        phaseRow('… `item.started` → `item.completed` (Codex emits `item.started` late)', 'startedToCompleted'),
        phaseRow('the tool’s result → the next model request', 'toNext'),
        phaseRow('… of which `tools/post-execute` → the `tool/result` event (the driver answers Codex after it)', 'logged'),
        '',
        `During the driver's turns this process held up to ${fmt(driverSide.rssMb)} MB resident; a raw ` +
          `\`spawn('/bin/bash', ['-c', 'true'])\` from it took ${fmt(driverSide.rawSpawnMs.median, 1)} ms (median of 40, p99 ` +
          `${fmt(driverSide.rawSpawnMs.p99, 1)}).`,
      ].join('\n')
      return {
        title,
        head: [
          'client',
          'runs: 1-call + K-call',
          'ms, 1 call (median)',
          `ms, K = ${calls} calls (median)`,
          'slope: ms per tool step (90% interval)',
          'tool step ms, steps 2…K (median)',
          'first request bytes',
        ],
        rows: [
          row('Codex driver (kernel `shell` as a dynamic tool), warm sessions', driver, options.reps),
          row('Codex driver, a no-op kernel tool instead (the driver’s plumbing alone)', noop, options.reps),
          row('`codex exec` (its own `exec_command`), a fresh process per run', exec, options.execReps),
          ratioRow('driver / `codex exec`', driver),
          ratioRow('driver with the no-op tool / `codex exec`', noop),
        ],
        notes: [
          `Each turn or run: a prompt holding \`[[calls:N:TOOL:ARGS]]\`; the fake Responses API answers with N function calls ` +
            'of TOOL, one per response, then a text. Driver: `createKernel([useDriver(codexDriver({ model, provider, env })), ' +
            'tools()])`; per rep a session (one `codex app-server`, one thread) warmed by an unrecorded 1-call turn, then a ' +
            '1-call and a K-call turn (the order flipping every rep), a full GC before each; the model calls the dynamic tool ' +
            '`shell` with `{"command":"true"}` (the kernel’s tool points, then `/bin/bash -c true`) or, in the no-op row, a ' +
            'kernel tool `noop` that starts no process. `codex exec --skip-git-repo-check --json --sandbox danger-full-access ' +
            '-c approval_policy="never"` with HOME and CODEX_HOME in a temp dir shared by its runs, the driver\'s ' +
            '`config.toml` (checked equal to the one the driver wrote), a fresh process per run: one unrecorded run of each ' +
            'kind, then alternating; the model calls `exec_command` with `{"cmd":"true"}` (Codex runs `/bin/bash -lc true`). ' +
            'Every turn and run is checked: completed / exit 0, N tool results without error, N calls then a text.',
          'A `codex exec` run pays its process start every time and a warm driver turn does not, so compare slopes (what ' +
            'one more tool call costs), not totals. Slope = (median K-call − median 1-call) / (K − 1), its interval a ' +
            "percentile bootstrap of that difference. Tool step: from the request that asked for a call to the next request, on the fake server's clock; " +
            'steps 2…K. The requests differ (the driver turns off Codex’s shell and multi-agent tools and offers the ' +
            "kernel's four): see the last column.",
          breakdown,
        ],
        data: { options, driver, noop, exec, driverRssMb: driverSide.rssMb, rawSpawnMs: driverSide.rawSpawnMs },
      }
    } finally {
      await server.close()
    }
  })
}
