import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudePayload, hookEnv, payloadLine } from '@harness-kernel/claude-code'
import { runHookCommands } from '@harness-kernel/hook-protocol'
import {
  definePlugin,
  ExecProcessRunner,
  type Kernel,
  type Plugin,
  type ProcessRunner,
  type ProcessRunOptions,
  type ProcessRunResult,
  type Session,
  type SessionEvent,
  type ToolCallPayload,
} from '@harness-kernel/kernel'
import { claudeCodeKernel } from './claude-code-setup.js'
import { type Call, type CallStats, compare, fmt, gc, now, perCall, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

const TARGET = 1.2
/** Claude Code runs a command handler with `/bin/sh -c` on Linux (no `shell` field), and so does the dialect. */
const SHELL = '/bin/sh'

/** What a handler of `true` gives back, instantly: the dialect's own cost without any process. Keeps the last options. */
class InstantRunner implements ProcessRunner {
  last: ProcessRunOptions | undefined
  async run(options: ProcessRunOptions): Promise<ProcessRunResult> {
    this.last = options
    return {
      exitCode: 0,
      signal: null,
      stdout: '',
      stderr: '',
      stdoutBytes: 0,
      stderrBytes: 0,
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
      aborted: false,
      durationMs: 0,
      pid: undefined,
    }
  }
}

/** Counts what one occurrence writes to the session log, and keeps the last `hook/run` record. */
function logProbe() {
  const counts = new Map<string, number>()
  const last: { hookRun?: SessionEvent } = {}
  const plugin = definePlugin({
    name: 'bench-log-probe',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-log-probe', ({ event }) => {
        counts.set(event.type, (counts.get(event.type) ?? 0) + 1)
        if (event.type === 'hook/run') last.hookRun = event
      })
    },
  })
  return { plugin, counts, last }
}

interface DialectSetup {
  kernel: Kernel
  session: Session
  occurrence: () => Promise<unknown>
}

/** A kernel with one PreToolUse handler `true`, a started session (the dialect loads settings per session), and one occurrence's call. */
async function dialect(dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]): Promise<DialectSetup> {
  const { kernel } = claudeCodeKernel({
    dir,
    groups: [['true']],
    ...(processRunner ? { processRunner } : {}),
    ...(plugins ? { plugins } : {}),
  })
  await kernel.ready
  const session = await kernel.startSession()
  const payload: ToolCallPayload = {
    session,
    turn: { id: 'bench-turn', number: 1 },
    step: 1,
    signal: new AbortController().signal,
    call: { id: 'call_bench', name: 'shell', input: { command: 'echo hi' } },
  }
  const occurrence = () => kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)
  return { kernel, session, occurrence }
}

const rawSpawn = (): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', 'true'])
    child.once('error', reject)
    child.once('close', resolve)
  })

/** A raw spawn doing what the runner does around it: own group, the dialect's env over ours, the payload written, both pipes read. */
const rawSpawnLikeRunner = (options: ProcessRunOptions) => (): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', 'true'], { cwd: options.cwd, env: { ...process.env, ...options.env }, detached: true })
    child.once('error', reject)
    child.stdin.on('error', () => {})
    child.stdout.on('data', () => {})
    child.stderr.on('data', () => {})
    child.stdin.end(options.stdin)
    child.once('close', resolve)
  })

interface SpawnCost {
  rss: number
  /** The whole raw spawn, to `close`. */
  wallMs: Stats
  /** The synchronous `spawn()` call alone: fork + exec, with the main thread blocked. */
  spawnCallMs: Stats
}

/** Raw spawns timed as they are, then with `ballastMb` MB more resident memory: what fork costs grows with the parent. */
async function spawnCostByRss(calls: number, ballastMb: number): Promise<{ before: SpawnCost; after: SpawnCost }> {
  const measure = async (): Promise<SpawnCost> => {
    const wall: number[] = []
    const spawnCall: number[] = []
    for (let i = 0; i < calls + 10; i++) {
      const start = now()
      await new Promise((resolve, reject) => {
        const child = spawn(SHELL, ['-c', 'true'])
        if (i >= 10) spawnCall.push(since(start) / 1e6)
        child.once('error', reject)
        child.once('close', resolve)
      })
      if (i >= 10) wall.push(since(start) / 1e6)
    }
    return { rss: process.memoryUsage().rss, wallMs: summarize(wall), spawnCallMs: summarize(spawnCall) }
  }
  gc()
  const before = await measure()
  // Filled, so the pages are really resident.
  const ballast = Array.from({ length: ballastMb }, () => Buffer.alloc(2 ** 20, 1))
  const after = await measure()
  ballast.length = 0
  gc()
  return { before, after }
}

/**
 * Where the dialect's own time goes: its no-process occurrence and three of its parts, each in a hot loop (`compare`, ns per
 * call), next to the cold single calls of the main table (a full GC before each round, a spawn between calls).
 */
async function ownCostBreakdown(setup: DialectSetup, hookRun: SessionEvent, options: ProcessRunOptions): Promise<Record<string, Stats>> {
  const { session } = setup
  const { v: _v, seq: _seq, at: _at, type: _type, ...record } = hookRun as SessionEvent & { type: 'hook/run' }
  const fields = { tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_use_id: 'call_bench' }
  const common = {
    sessionId: session.id,
    transcriptPath: session.transcriptPath,
    cwd: session.cwd,
    permissionMode: 'bypassPermissions' as const,
  }
  const repeat = (work: () => unknown) => (ops: number) => {
    for (let i = 0; i < ops; i++) work()
  }
  return compare(
    {
      'no-process occurrence (hot)': async (ops) => {
        for (let i = 0; i < ops; i++) await setup.occurrence()
      },
      'hookEnv(…) (reads every name in process.env)': repeat(() =>
        hookEnv({ projectDir: session.cwd, sessionId: session.id, event: 'PreToolUse', entrypoint: 'harness-kernel' }),
      ),
      'claudePayload + payloadLine': repeat(() => payloadLine(claudePayload('PreToolUse', common, fields))),
      [`session.recordHookRun (the ${fmt(JSON.stringify(hookRun).length)}-B record)`]: repeat(() => session.recordHookRun(record)),
      "runner's child env, `{ ...process.env, ...env }`": repeat(() => ({ ...process.env, ...options.env })),
    },
    { warmup: 2, samples: 7, ops: 2000 },
  )
}

export interface OverheadRow {
  variant: string
  stats: CallStats
  ratio: number
}

const DIALECT_ROW = 'dialect: PreToolUse occurrence'
const INSTANT_ROW = 'dialect, no process (instant runner)'

export async function claudeCodeOverheadBench(options: { calls: number; warmup: number }): Promise<Section> {
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-claude-code-overhead-'))
  const setups: DialectSetup[] = []
  try {
    const probe = logProbe()
    const keep = (setup: DialectSetup) => {
      setups.push(setup)
      return setup
    }
    const measured = keep(await dialect(join(root, 'dialect'), undefined, [probe.plugin]))
    const instant = new InstantRunner()
    const withoutProcess = keep(await dialect(join(root, 'instant'), instant))
    // The exact run options the dialect hands the runner (shell, cwd, env, stdin, timeout), so every spawn variant does the same.
    await withoutProcess.occurrence()
    const dialectOptions = instant.last
    if (dialectOptions === undefined) throw new Error('claude-code-overhead: the dialect ran no handler')
    const stdin = typeof dialectOptions.stdin === 'string' ? dialectOptions.stdin : ''
    if (!stdin.includes('"hook_event_name":"PreToolUse"') || dialectOptions.shell !== SHELL || dialectOptions.command !== 'true')
      throw new Error(`claude-code-overhead: unexpected hook run ${JSON.stringify({ ...dialectOptions, env: undefined })}`)
    const cwd = measured.session.cwd
    const runOptions: ProcessRunOptions = { ...dialectOptions, cwd }
    const addedEnv = Object.keys(dialectOptions.env ?? {}).length
    const runner = new ExecProcessRunner()
    const runnerNoGrace = new ExecProcessRunner({ pipeGraceMs: 0 })

    const logBefore = statSync(measured.session.transcriptPath).size
    probe.counts.clear()
    const variants: Record<string, Call> = {
      'raw `spawn(sh, [-c, true])`': rawSpawn,
      "raw spawn, runner's options": rawSpawnLikeRunner(runOptions),
      'ExecProcessRunner.run': () => runner.run(runOptions),
      'ExecProcessRunner.run, pipeGraceMs 0': () => runnerNoGrace.run(runOptions),
      'runHookCommands(runner, [spec])': () =>
        runHookCommands(runner, [
          {
            command: 'true',
            shell: SHELL,
            cwd,
            stdin,
            timeoutMs: runOptions.timeoutMs ?? 600_000,
            ...(runOptions.env ? { env: runOptions.env } : {}),
          },
        ]),
      [DIALECT_ROW]: measured.occurrence,
      [INSTANT_ROW]: withoutProcess.occurrence,
    }
    const stats = await perCall(variants, { warmup: options.warmup, samples: options.calls, gc: 'round' })
    const occurrences = options.warmup + options.calls
    const logBytes = (statSync(measured.session.transcriptPath).size - logBefore) / occurrences
    const logEvents = Object.fromEntries([...probe.counts].map(([type, count]) => [type, count / occurrences]))
    for (const setup of setups) {
      const result = await setup.occurrence()
      if ((result as { kind?: string }).kind !== 'allow')
        throw new Error(`claude-code-overhead: the occurrence returned ${JSON.stringify(result)}`)
    }
    if ((probe.counts.get('hook/run') ?? 0) < occurrences)
      throw new Error(`claude-code-overhead: ${probe.counts.get('hook/run') ?? 0} hook runs recorded, expected ${occurrences}`)
    if (probe.last.hookRun === undefined) throw new Error('claude-code-overhead: no hook/run record seen')
    const breakdown = await ownCostBreakdown(withoutProcess, probe.last.hookRun, runOptions)
    const byRss = await spawnCostByRss(100, 100)
    const base = stats['raw `spawn(sh, [-c, true])`']!.wallMs.median
    const rows: OverheadRow[] = Object.entries(stats).map(([variant, s]) => ({ variant, stats: s, ratio: s.wallMs.median / base }))
    const dialectRow = rows.find((row) => row.variant === DIALECT_ROW)!
    const instantRow = rows.find((row) => row.variant === INSTANT_ROW)!
    const runnerRow = rows.find((row) => row.variant === 'ExecProcessRunner.run')!
    const hotMs = breakdown['no-process occurrence (hot)']!.median / 1e6
    const hotParts = Object.entries(breakdown)
      .map(([part, s]) => `${part} ${fmt(s.median / 1e3, 1)}`)
      .join('; ')
    const cost = (at: SpawnCost) =>
      `${fmt(at.wallMs.median, 2)} ms, of which the \`spawn()\` call (fork + exec, main thread blocked) ${fmt(at.spawnCallMs.median, 2)} ms, ` +
      `at RSS ${fmt(at.rss / 2 ** 20)} MB`
    return {
      title: '(h) Claude Code dialect: one trivial PreToolUse hook (`true`) vs a raw spawn of `/bin/sh -c true`',
      head: ['variant', 'ms/call (median)', 'p99', 'CPU ms/call (median)', 'vs raw spawn', `within ${TARGET}×`],
      rows: rows.map((row) => [
        row.variant,
        fmt(row.stats.wallMs.median, 2),
        fmt(row.stats.wallMs.p99, 2),
        fmt(row.stats.cpuMs.median, 2),
        `${fmt(row.ratio, 2)}×`,
        row === dialectRow ? (row.ratio <= TARGET ? 'yes' : 'no') : '',
      ]),
      notes: [
        `${options.calls} calls per variant after ${options.warmup} warmup rounds, one call of each variant per round in a rotating order, ` +
          'a full GC before each round. The dialect rows are `kernel.hooks.toolPreExecute.promise({ kind: "allow" }, payload)` ' +
          "for a `shell` call (Claude Code name `Bash`) on a started session, with the project's `.claude/settings.json` = one " +
          'PreToolUse group (matcher `Bash`) with one command handler `true`. The runner rows get the exact options the dialect ' +
          `hands its runner: \`/bin/sh -c true\`, the session's cwd, ${addedEnv} environment entries over ours, the ` +
          `${fmt(Buffer.byteLength(stdin))}-byte payload line. CPU is this process's (all threads) per call. Target: the dialect ` +
          `within ${TARGET}× of the raw spawn, as for Codex.`,
        `The dialect's own work (selection, dedup, payload, environment, output parsing, merge, the \`hook/run\` record), the ` +
          `instant-runner row, is ${fmt(instantRow.stats.wallMs.median, 3)} ms; dialect − runner = ` +
          `${fmt(dialectRow.stats.wallMs.median - runnerRow.stats.wallMs.median, 2)} ms.`,
        `Where the dialect's own time goes, each in a hot loop (median of 7 samples of 2,000 calls, µs per call): ${hotParts}. ` +
          `The last is the runner's, in every runner row as well. Hot, the no-process occurrence takes ${fmt(hotMs, 3)} ms, ` +
          `${fmt(instantRow.stats.wallMs.median / hotMs, 1)}× less than as a cold single call above (a full GC before each round ` +
          'and a fork between calls leave the caches cold).',
        `Per occurrence the dialect wrote ${Object.entries(logEvents)
          .map(([type, count]) => `${fmt(count, 2)} \`${type}\``)
          .join(', ')} event(s) to the session log, ${fmt(logBytes)} B${'notice' in logEvents ? '' : ' (no `notice`)'}, not fsynced ` +
          '(`fsync: "steering"`, the default).',
        `Fork cost grows with the parent's memory: a raw spawn (median of 100, separately) took ${cost(byRss.before)}; ` +
          `with 100 MB more resident: ${cost(byRss.after)}.`,
      ],
      data: {
        options,
        target: TARGET,
        shell: SHELL,
        stdinBytes: Buffer.byteLength(stdin),
        envEntries: addedEnv,
        logEventsPerOccurrence: logEvents,
        logBytesPerOccurrence: logBytes,
        ownCostHotNsPerCall: breakdown,
        byRss,
        rows,
      },
    }
  } finally {
    for (const setup of setups) {
      await setup.session.end()
      await setup.kernel.dispose()
    }
    rmSync(root, { recursive: true, force: true })
  }
}
