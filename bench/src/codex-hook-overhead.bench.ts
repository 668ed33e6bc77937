import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
  type ToolCallPayload,
} from '@harness-kernel/kernel'
import { codexKernel } from './codex-setup.js'
import { type Call, type CallStats, fmt, gc, now, perCall, type Stats, since, summarize } from './measure.js'
import type { Section } from './report.js'

const TARGET = 1.2
const SHELL = '/bin/bash'

/** What a handler of `true` gives back, instantly: the dialect's own cost without any process. */
class InstantRunner implements ProcessRunner {
  lastStdin = ''
  async run(options: ProcessRunOptions): Promise<ProcessRunResult> {
    this.lastStdin = typeof options.stdin === 'string' ? options.stdin : ''
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

/** Counts what one occurrence writes to the session log. */
function logProbe() {
  const counts = new Map<string, number>()
  const plugin = definePlugin({
    name: 'bench-log-probe',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-log-probe', ({ event }) => counts.set(event.type, (counts.get(event.type) ?? 0) + 1))
    },
  })
  return { plugin, counts }
}

interface DialectSetup {
  kernel: Kernel
  session: Session
  occurrence: () => Promise<unknown>
}

/** A kernel with one PreToolUse handler `true`, a started session (the dialect keeps its state per session), and one occurrence's call. */
async function dialect(dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]): Promise<DialectSetup> {
  const { kernel } = codexKernel({ dir, commands: ['true'], ...(processRunner ? { processRunner } : {}), ...(plugins ? { plugins } : {}) })
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

/** A raw spawn doing what the runner does around the process: own group, the env copied, the payload written, both streams read. */
const rawSpawnLikeRunner = (stdin: string, cwd: string) => (): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', 'true'], { cwd, env: { ...process.env }, detached: true })
    child.once('error', reject)
    child.stdin.on('error', () => {})
    child.stdout.on('data', () => {})
    child.stderr.on('data', () => {})
    child.stdin.end(stdin)
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

export interface OverheadRow {
  variant: string
  stats: CallStats
  ratio: number
}

export async function codexHookOverheadBench(options: { calls: number; warmup: number }): Promise<Section> {
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-codex-overhead-'))
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
    // The exact stdin the dialect sends, so that every spawn variant writes the same bytes.
    await withoutProcess.occurrence()
    const stdin = instant.lastStdin
    if (!stdin.includes('"hook_event_name":"PreToolUse"')) throw new Error(`codex-overhead: unexpected hook stdin ${stdin}`)
    const cwd = measured.session.cwd
    const runner = new ExecProcessRunner()
    const runnerNoGrace = new ExecProcessRunner({ pipeGraceMs: 0 })
    const runOptions: ProcessRunOptions = { command: 'true', shell: SHELL, cwd, stdin, timeoutMs: 600_000 }

    const logBefore = statSync(measured.session.transcriptPath).size
    probe.counts.clear()
    const variants: Record<string, Call> = {
      'raw `spawn(bash, [-c, true])`': rawSpawn,
      "raw spawn, runner's options": rawSpawnLikeRunner(stdin, cwd),
      'ExecProcessRunner.run': () => runner.run(runOptions),
      'ExecProcessRunner.run, pipeGraceMs 0': () => runnerNoGrace.run(runOptions),
      'runHookCommands(runner, [spec])': () => runHookCommands(runner, [{ command: 'true', shell: SHELL, cwd, stdin, timeoutMs: 600_000 }]),
      'dialect: PreToolUse occurrence': measured.occurrence,
      'dialect, no process (instant runner)': withoutProcess.occurrence,
    }
    const stats = await perCall(variants, { warmup: options.warmup, samples: options.calls, gc: 'round' })
    const occurrences = options.warmup + options.calls
    const logBytes = (statSync(measured.session.transcriptPath).size - logBefore) / occurrences
    const logEvents = Object.fromEntries([...probe.counts].map(([type, count]) => [type, count / occurrences]))
    for (const setup of setups) {
      const result = await setup.occurrence()
      if ((result as { kind?: string }).kind !== 'allow')
        throw new Error(`codex-overhead: the occurrence returned ${JSON.stringify(result)}`)
    }
    const byRss = await spawnCostByRss(100, 100)
    const base = stats['raw `spawn(bash, [-c, true])`']!.wallMs.median
    const rows: OverheadRow[] = Object.entries(stats).map(([variant, s]) => ({ variant, stats: s, ratio: s.wallMs.median / base }))
    const dialectRow = rows.find((row) => row.variant === 'dialect: PreToolUse occurrence')!
    const cost = (at: SpawnCost) =>
      `${fmt(at.wallMs.median, 2)} ms, of which the \`spawn()\` call (fork + exec, main thread blocked) ${fmt(at.spawnCallMs.median, 2)} ms, ` +
      `at RSS ${fmt(at.rss / 2 ** 20)} MB`
    return {
      title: '(d) Codex dialect: one trivial PreToolUse hook (`true`) vs a raw spawn of `/bin/bash -c true`',
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
          'for a `shell` call (Codex name `Bash`) on a started session, with `hooks.json` = one PreToolUse handler `true`. ' +
          `The spawn rows write the same ${fmt(Buffer.byteLength(stdin))}-byte payload the dialect sends. CPU is this process's ` +
          '(all threads) per call. Target from the issue: the dialect within 1.2× of the raw spawn.',
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
        stdinBytes: Buffer.byteLength(stdin),
        logEventsPerOccurrence: logEvents,
        logBytesPerOccurrence: logBytes,
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
