import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { definePlugin, defineTool, type Plugin } from '@harness-kernel/kernel'
import { type FakeAnthropic, mainRequests, type RecordedRequest, startFakeAnthropic } from '@harness-kernel/testing'
import { z } from 'zod'
import { claudeEnv, driverKernel, withClaude } from './claude-code-driver-setup.js'
import { medianDifferenceInterval } from './hook-latency.js'
import { fmt, gc, perCall, type Stats, summarize } from './measure.js'
import { claudeBenchScript } from './model-scripts.js'
import { rawSpawn } from './raw-spawn.js'
import type { Section } from './report.js'

/**
 * Where one tool step goes, ms. Claude Code's stream (the Agent SDK's messages for the driver, stream-json for `claude
 * -p`) shows the model's tool_use and the tool_result; the kernel's own points split the driver's tool window further.
 */
interface Phases {
  /** The model request that asks for the call → Claude Code emits the assistant tool_use. */
  toAssistant: number
  /** The assistant tool_use → Claude Code emits the tool_result: the tool window. */
  toolWindow: number
  /** The tool_result → the next model request. */
  toNext: number
  /** Driver only: the assistant tool_use → the MCP call reaches the kernel (`tools/pre-execute`). */
  toKernel?: number
  /** Driver only: the kernel's tool call, `tools/pre-execute` → `tools/post-execute` (`/bin/bash -c true` inside). */
  kernelTool?: number
  /** Driver only: `tools/post-execute` → Claude Code emits the tool_result. */
  back?: number
}

/** One turn (driver) or one `claude -p` run, with `calls` tool calls of `true`. */
interface StepRun {
  calls: number
  /** Driver: `session.run()`; `claude -p`: spawn to exit. */
  totalMs: number
  /** From each main-loop model request that asked for a tool call to the next request (the fake server's clock). */
  stepMs: number[]
  phases: Phases[]
  /** The main-loop request bodies' sizes, bytes. */
  requestBytes: number[]
}

export interface ClientSteps {
  client: 'driver' | 'driver, no-op tool' | 'claude -p'
  one: Stats
  many: Stats
  /** (median K-call − median 1-call) / (K − 1), ms. */
  slope: number
  /** 90% bootstrap interval of the slope. */
  slopeInterval: [number, number]
  /** Steps 2…K of the K-call runs (a run's first step is left out: `claude -p`'s first Bash call sets its shell up), ms. */
  steps: Stats
  /** Medians of each phase over the same steps. */
  phases: Record<keyof Phases, number | undefined>
  /** The first main-loop request's body (bytes, median). */
  firstRequestBytes: number
  runs: StepRun[]
}

/** A kernel tool that runs nothing: the driver's tool step without the process, its MCP plumbing alone. */
const noopTool: Plugin = definePlugin({
  name: 'bench-noop-tool',
  setup(kernel) {
    kernel.registerTool(
      defineTool({
        name: 'noop',
        description: 'Does nothing.',
        inputSchema: z.object({ command: z.string() }),
        async execute() {
          return { output: 'ok', isError: false }
        },
      }),
    )
  },
})

const prompt = (calls: number) => `Run \`true\` ${calls} time(s), one call after the other. [[calls:${calls}]]`

const mainSince = (server: FakeAnthropic, from: number, calls: number, what: string): RecordedRequest[] => {
  const main = mainRequests({ requests: server.requests.slice(from) })
  if (main.length !== calls + 1)
    throw new Error(`claude-code-driver-steps: ${what}: ${main.length} main-loop requests, expected ${calls + 1}`)
  return main
}

const hasBlock = (message: { [key: string]: unknown }, type: string) => {
  const content = (message.message as { content?: unknown } | undefined)?.content
  return Array.isArray(content) && content.some((block: { type?: string }) => block.type === type)
}

function summarizeClient(client: ClientSteps['client'], runs: StepRun[], calls: number): ClientSteps {
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
      toAssistant: phase('toAssistant'),
      toolWindow: phase('toolWindow'),
      toNext: phase('toNext'),
      toKernel: phase('toKernel'),
      kernelTool: phase('kernelTool'),
      back: phase('back'),
    },
    firstRequestBytes: summarize(runs.map((run) => run.requestBytes[0]!)).median,
    runs,
  }
}

/** One of the compared clients, run a rep at a time so the three are interleaved (load drifts hit them alike). */
interface StepClient {
  /** Rep `rep`'s 1-call and K-call runs, in the order `rep` gives. */
  rep(rep: number): Promise<StepRun[]>
  close(): Promise<void>
}

/**
 * The driver: a session (one Claude Code process) per rep, kept warm by an unrecorded 1-call turn, then a 1-call and a
 * K-call turn in either order; so every turn carries a short history, as a `claude -p` run does. Also a raw spawn at the
 * RSS the driver runs with.
 */
async function driverClient(
  root: string,
  server: FakeAnthropic,
  calls: number,
  noop: boolean,
): Promise<StepClient & { spawnCost(): { rssMb: number; rawSpawnMs: Stats } }> {
  let marks: Record<'assistant' | 'pre' | 'post' | 'user', number[]> = { assistant: [], pre: [], post: [], user: [] }
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
    },
  })
  const kernel = await driverKernel({
    dir: join(root, noop ? 'driver-noop' : 'driver'),
    baseUrl: server.url,
    plugins: noop ? [noopTool, probe] : [probe],
    tap: {
      onMessage(message, at) {
        if (message.type === 'assistant' && hasBlock(message, 'tool_use')) marks.assistant.push(at)
        if (message.type === 'user' && hasBlock(message, 'tool_result')) marks.user.push(at)
      },
    },
  })
  let rss = 0
  let rawSpawnMs: Stats | undefined
  const rep = async (rep: number): Promise<StepRun[]> => {
    const runs: StepRun[] = []
    const session = await kernel.startSession()
    for (const [index, count] of [1, ...(rep % 2 === 0 ? [1, calls] : [calls, 1])].entries()) {
      const from = server.requests.length
      marks = { assistant: [], pre: [], post: [], user: [] }
      gc()
      const start = performance.now()
      const result = await session.run(prompt(count))
      const totalMs = performance.now() - start
      rss = Math.max(rss, process.memoryUsage().rss)
      if (result.status !== 'completed')
        throw new Error(`claude-code-driver-steps: a driver turn ended ${result.status}: ${result.error ?? ''}`)
      const results = result.messages.filter((message) => message.role === 'tool')
      if (results.length !== count)
        throw new Error(`claude-code-driver-steps: ${results.length} tool results in a driver turn, expected ${count}`)
      const main = mainSince(server, from, count, 'a driver turn')
      for (const [name, values] of Object.entries(marks)) {
        if (values.length !== count)
          throw new Error(`claude-code-driver-steps: ${values.length} ${name} marks in a driver turn, expected ${count}`)
      }
      if (index === 0) continue
      runs.push({
        calls: count,
        totalMs,
        stepMs: main.slice(1).map((request, i) => request.at - main[i]!.at),
        phases: Array.from({ length: count }, (_, i): Phases => {
          const [assistant, pre, post, user] = [marks.assistant[i]!, marks.pre[i]!, marks.post[i]!, marks.user[i]!]
          return {
            toAssistant: assistant - main[i]!.at,
            toolWindow: user - assistant,
            toNext: main[i + 1]!.at - user,
            toKernel: pre - assistant,
            kernelTool: post - pre,
            back: user - post,
          }
        }),
        requestBytes: main.map((request) => request.bytes),
      })
    }
    // What a process costs this process now (the Agent SDK loaded, Claude Code running beside it): raw spawns of
    // `/bin/bash -c true`, as the kernel's shell tool runs its command.
    rawSpawnMs ??= (await perCall({ raw: rawSpawn('/bin/bash') }, { warmup: 5, samples: 40 })).raw!.wallMs
    await session.end()
    return runs
  }
  return {
    rep,
    close: () => kernel.dispose(),
    spawnCost: () => ({ rssMb: rss / 2 ** 20, rawSpawnMs: rawSpawnMs! }),
  }
}

/**
 * `claude -p` alone: a fresh process per run, Claude Code's own Bash, permissions skipped; every run shares one config
 * dir. One unrecorded run of each kind first.
 */
async function claudeClient(bin: string, root: string, server: FakeAnthropic, calls: number): Promise<StepClient> {
  const dir = join(root, 'claude-p')
  const workspace = join(dir, 'workspace')
  const config = join(dir, 'config')
  mkdirSync(workspace, { recursive: true })
  mkdirSync(config, { recursive: true })
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries({
    ...process.env,
    ...claudeEnv(server.url, join(dir, 'home')),
    CLAUDE_CONFIG_DIR: config,
    // Claude Code refuses --dangerously-skip-permissions as root unless it is told it runs in a sandbox.
    IS_SANDBOX: '1',
  })) {
    if (value !== undefined) env[key] = value
  }
  const args = (count: number) => [
    '-p',
    prompt(count),
    '--output-format',
    'stream-json',
    '--verbose',
    '--tools',
    'Bash',
    '--dangerously-skip-permissions',
    '--setting-sources',
    '',
  ]
  const run = async (count: number): Promise<StepRun> => {
    const from = server.requests.length
    gc()
    const start = performance.now()
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(bin, args(count), { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      child.once('error', reject)
      child.once('close', (exit) => resolve({ code: exit, stdout, stderr }))
    })
    const totalMs = performance.now() - start
    const fail = (what: string) =>
      new Error(`claude-code-driver-steps: claude -p: ${what}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ')}`)
    if (code !== 0) throw fail(`exit code ${code}`)
    const stream = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type?: string; subtype?: string; timestamp?: string; message?: { content?: unknown } })
    if (!stream.some((message) => message.type === 'result' && message.subtype === 'success')) throw fail('no successful result')
    const results = stream
      .filter((message) => message.type === 'user' && Array.isArray(message.message?.content))
      .flatMap((message) => message.message!.content as { type?: string; is_error?: boolean }[])
      .filter((block) => block.type === 'tool_result')
    if (results.length !== count || results.some((block) => block.is_error === true))
      throw fail(
        `${results.length} tool results (${results.filter((block) => block.is_error === true).length} errors), expected ${count} without`,
      )
    const main = mainSince(server, from, count, 'a claude -p run')
    const times = (type: string, block: string) =>
      stream.filter((message) => message.type === type && hasBlock(message, block)).map((message) => Date.parse(message.timestamp ?? ''))
    const assistant = times('assistant', 'tool_use')
    const user = times('user', 'tool_result')
    if (assistant.length !== count || user.length !== count || [...assistant, ...user].some(Number.isNaN))
      throw fail(`${assistant.length} timed tool_use and ${user.length} tool_result messages, expected ${count}`)
    return {
      calls: count,
      totalMs,
      stepMs: main.slice(1).map((request, i) => request.at - main[i]!.at),
      phases: Array.from({ length: count }, (_, i) => ({
        toAssistant: assistant[i]! - main[i]!.wallClock,
        toolWindow: user[i]! - assistant[i]!,
        toNext: main[i + 1]!.wallClock - user[i]!,
      })),
      requestBytes: main.map((request) => request.bytes),
    }
  }
  await run(1)
  await run(calls)
  return {
    rep: async (rep) => {
      const runs: StepRun[] = []
      for (const count of rep % 2 === 0 ? [1, calls] : [calls, 1]) runs.push(await run(count))
      return runs
    },
    close: async () => {},
  }
}

/** Every client's reps, interleaved: rep r runs the clients in an order rotated by r. */
async function interleavedRuns(clients: StepClient[], reps: number): Promise<StepRun[][]> {
  const runs: StepRun[][] = clients.map(() => [])
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < clients.length; i++) {
      const index = (rep + i) % clients.length
      runs[index]!.push(...(await clients[index]!.rep(rep)))
    }
  }
  return runs
}

/**
 * (l) Per tool step, the Claude Code driver against `claude -p` alone on the same fake Messages API: turns of 1 and of K
 * sequential tool calls of `true`, and the slope between them. The driver runs the kernel's `shell` over MCP; `claude -p`
 * its own Bash.
 */
export async function claudeCodeDriverStepsBench(options: { calls: number; reps: number }): Promise<Section> {
  const title = '(l) Claude Code driver vs `claude -p`: time per tool step'
  return withClaude(title, 'hk-bench-claude-code-steps-', async (bin, root) => {
    const { calls } = options
    const server = await startFakeAnthropic({ script: claudeBenchScript })
    try {
      const clients = [
        await driverClient(root, server, calls, false),
        await driverClient(root, server, calls, true),
        await claudeClient(bin, root, server, calls),
      ] as const
      let runs: StepRun[][]
      try {
        runs = await interleavedRuns([...clients], options.reps)
      } finally {
        for (const client of clients) await client.close()
      }
      const driverSide = clients[0].spawnCost()
      const driver = summarizeClient('driver', runs[0]!, calls)
      const noop = summarizeClient('driver, no-op tool', runs[1]!, calls)
      const claude = summarizeClient('claude -p', runs[2]!, calls)
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
      const phaseRow = (label: string, key: keyof Phases) =>
        `| ${label} | ${ms(driver.phases[key])} | ${ms(noop.phases[key])} | ${ms(claude.phases[key])} | ${ratio(driver.phases[key], claude.phases[key])} |`
      const breakdown = [
        `Where a tool step goes (median ms over steps 2…K of the K-call runs; Claude Code's stream: the Agent SDK's messages ` +
          "for the driver, stream-json's `timestamp`s, to the ms, for `claude -p`):",
        '',
        '| phase | driver | driver, no-op tool | `claude -p` | driver / `claude -p` |',
        '| --- | ---: | ---: | ---: | ---: |',
        phaseRow('model request → Claude Code emits the assistant tool_use', 'toAssistant'),
        phaseRow('tool_use → tool_result (the tool window)', 'toolWindow'),
        phaseRow('… of which tool_use → the MCP call reaches the kernel (`tools/pre-execute`)', 'toKernel'),
        phaseRow("… of which the kernel's tool call (`tools/pre-execute` → `tools/post-execute`)", 'kernelTool'),
        phaseRow('… of which `tools/post-execute` → Claude Code emits the tool_result', 'back'),
        phaseRow('tool_result → the next model request', 'toNext'),
        '',
        `During the driver's turns this process held up to ${fmt(driverSide.rssMb)} MB resident (the Agent SDK loaded); a raw ` +
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
          row('Claude Code driver (kernel `shell` over MCP), warm sessions', driver, options.reps),
          row('Claude Code driver, a no-op kernel tool instead (MCP plumbing alone)', noop, options.reps),
          row('`claude -p` (its own Bash), a fresh process per run', claude, options.reps),
          [
            'driver / `claude -p`',
            '',
            ratio(driver.one.median, claude.one.median),
            ratio(driver.many.median, claude.many.median),
            ratio(driver.slope, claude.slope),
            ratio(driver.steps.median, claude.steps.median),
            '',
          ],
          [
            'driver with the no-op tool / `claude -p`',
            '',
            ratio(noop.one.median, claude.one.median),
            ratio(noop.many.median, claude.many.median),
            ratio(noop.slope, claude.slope),
            ratio(noop.steps.median, claude.steps.median),
            '',
          ],
        ],
        notes: [
          `Each turn or run: a prompt holding \`[[calls:N]]\`; the fake Messages API answers with N tool calls of \`true\`, one ` +
            'per request, then a text. Driver: `createKernel([useDriver(claudeCodeDriver({ env })), tools()])`; per rep a session ' +
            '(one Claude Code process) warmed by an unrecorded 1-call turn, then a 1-call and a K-call turn (the order flipping ' +
            'every rep; a short history, as in a `claude -p` run), a full GC before each; the model calls `mcp__host__shell`, which runs ' +
            "the kernel's tool points and `/bin/bash -c true` (or, in the no-op row, a kernel tool `noop` that starts no process). `claude -p --output-format stream-json --verbose --tools Bash " +
            "--dangerously-skip-permissions --setting-sources ''` with IS_SANDBOX=1, the same quiet environment, HOME and " +
            'CLAUDE_CONFIG_DIR in a temp dir shared by its runs; one unrecorded run of each kind first. The three clients take ' +
            'turns a rep at a time, in an order rotating every rep, so a drift in the machine load hits them alike. Every turn ' +
            'and run is checked: completed, N tool results without error, N + 1 main-loop requests.',
          'A `claude -p` run pays its process start every time and the driver turn does not, so compare slopes (what one more ' +
            'tool call costs), not totals. Slope = (median K-call − median 1-call) / (K − 1), its interval a percentile ' +
            'bootstrap of that difference. Tool step: from the request that asked for a call to the next request, on the fake ' +
            "server's clock; steps 2…K only, because `claude -p`'s first Bash call of a run also sets its shell up (~100 ms " +
            'more). The two send different requests (the driver: the Agent SDK’s default system prompt and the kernel’s four ' +
            "tools; `claude -p`: Claude Code's own system prompt and Bash): see the last column.",
          breakdown,
        ],
        data: { options, driver, noop, claude, driverRssMb: driverSide.rssMb, rawSpawnMs: driverSide.rawSpawnMs },
      }
    } finally {
      await server.close()
    }
  })
}
