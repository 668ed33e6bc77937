import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudePayload, hookEnv, payloadLine } from '@harness-kernel/claude-code'
import type { Plugin, ProcessRunner, ProcessRunOptions, SessionEvent } from '@harness-kernel/kernel'
import { claudeCodeKernel } from './claude-code-setup.js'
import { closeSetups, type HookSetup, preToolUseSetup } from './hook-occurrence.js'
import {
  DIALECT_ROW,
  heavyHeapNote,
  INSTANT_ROW,
  OVERHEAD_TARGET,
  overheadMethod,
  overheadSetups,
  overheadTable,
  RUNNER_ROW,
  rowOf,
  sessionLogNote,
  timeOverhead,
} from './hook-overhead.js'
import { compare, fmt, type Stats } from './measure.js'
import { forkCostByRss, forkCostNote } from './raw-spawn.js'
import type { Section } from './report.js'

export type { OverheadRow } from './hook-overhead.js'

/** Claude Code runs a command handler with `/bin/sh -c` on Linux (no `shell` field), and so does the dialect. */
const SHELL = '/bin/sh'

/** A kernel with one PreToolUse handler `true`, a started session (the dialect loads settings per session), and one occurrence's call. */
async function dialect(dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]): Promise<HookSetup> {
  const { kernel } = claudeCodeKernel({
    dir,
    groups: [['true']],
    ...(processRunner ? { processRunner } : {}),
    ...(plugins ? { plugins } : {}),
  })
  return preToolUseSetup(kernel)
}

/**
 * Where the dialect's own time goes: its no-process occurrence and three of its parts, each in a hot loop (`compare`, ns per
 * call), next to the cold single calls of the main table (a full GC before each round, a spawn between calls).
 */
async function ownCostBreakdown(setup: HookSetup, hookRun: SessionEvent, options: ProcessRunOptions): Promise<Record<string, Stats>> {
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

export async function claudeCodeOverheadBench(options: { calls: number; warmup: number }): Promise<Section> {
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-claude-code-overhead-'))
  const setups: HookSetup[] = []
  try {
    const overhead = await overheadSetups(dialect, root, setups)
    const { probe, measured, withoutProcess } = overhead
    // The exact run options the dialect hands the runner (shell, cwd, env, stdin, timeout), so every spawn variant does the same.
    const dialectOptions = overhead.instant.last
    if (dialectOptions === undefined) throw new Error('claude-code-overhead: the dialect ran no handler')
    const stdin = overhead.instant.lastStdin
    if (!stdin.includes('"hook_event_name":"PreToolUse"') || dialectOptions.shell !== SHELL || dialectOptions.command !== 'true')
      throw new Error(`claude-code-overhead: unexpected hook run ${JSON.stringify({ ...dialectOptions, env: undefined })}`)
    const cwd = measured.session.cwd
    const runOptions: ProcessRunOptions & { stdin: string } = { ...dialectOptions, cwd, stdin }
    const addedEnv = Object.keys(dialectOptions.env ?? {}).length

    const times = await timeOverhead('claude-code-overhead', SHELL, overhead, setups, runOptions, options)
    const { occurrences } = times
    if ((probe.counts.get('hook/run') ?? 0) < occurrences)
      throw new Error(`claude-code-overhead: ${probe.counts.get('hook/run') ?? 0} hook runs recorded, expected ${occurrences}`)
    if (probe.last.hookRun === undefined) throw new Error('claude-code-overhead: no hook/run record seen')
    const breakdown = await ownCostBreakdown(withoutProcess, probe.last.hookRun, runOptions)
    const byRss = await forkCostByRss(SHELL)
    const { rows } = times
    const dialectRow = rowOf(rows, DIALECT_ROW)
    const instantRow = rowOf(rows, INSTANT_ROW)
    const runnerRow = rowOf(rows, RUNNER_ROW)
    const hotMs = breakdown['no-process occurrence (hot)']!.median / 1e6
    const hotParts = Object.entries(breakdown)
      .map(([part, s]) => `${part} ${fmt(s.median / 1e3, 1)}`)
      .join('; ')
    return {
      title: '(h) Claude Code dialect: one trivial PreToolUse hook (`true`) vs a raw spawn of `/bin/sh -c true`',
      ...overheadTable(times),
      notes: [
        overheadMethod(options) +
          "for a `shell` call (Claude Code name `Bash`) on a started session, with the project's `.claude/settings.json` = one " +
          'PreToolUse group (matcher `Bash`) with one command handler `true`. The runner rows get the exact options the dialect ' +
          `hands its runner: \`/bin/sh -c true\`, the session's cwd, ${addedEnv} environment entries over ours, the ` +
          `${fmt(Buffer.byteLength(stdin))}-byte payload line. CPU is this process's (all threads) per call. Target: the dialect ` +
          `within ${OVERHEAD_TARGET}× of the raw spawn, as for Codex.`,
        `The dialect's own work (selection, dedup, payload, environment, output parsing, merge, the \`hook/run\` record), the ` +
          `instant-runner row, is ${fmt(instantRow.stats.wallMs.median, 3)} ms; the dialect's run against the cold runner's: ` +
          `${fmt(dialectRow.stats.wallMs.median - runnerRow.stats.wallMs.median, 2)} ms (its shell was prestarted).`,
        `Where the dialect's own time goes, each in a hot loop (median of 7 samples of 2,000 calls, µs per call): ${hotParts}. ` +
          `The last is the runner's, in every runner row as well. Hot, the no-process occurrence takes ${fmt(hotMs, 3)} ms, ` +
          `${fmt(instantRow.stats.wallMs.median / hotMs, 1)}× less than as a cold single call above (a full GC before each round ` +
          'and a fork between calls leave the caches cold).',
        sessionLogNote(times),
        heavyHeapNote(times),
        forkCostNote(byRss),
      ],
      data: {
        options,
        target: OVERHEAD_TARGET,
        shell: SHELL,
        stdinBytes: Buffer.byteLength(stdin),
        envEntries: addedEnv,
        logEventsPerOccurrence: times.logEvents,
        logBytesPerOccurrence: times.logBytes,
        ownCostHotNsPerCall: breakdown,
        byRss,
        rows,
        heavyRows: times.heavyRows,
        rss: times.rss,
      },
    }
  } finally {
    await closeSetups(setups, root)
  }
}
