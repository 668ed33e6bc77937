import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Plugin, ProcessRunner, ProcessRunOptions } from '@harness-kernel/kernel'
import { codexKernel } from './codex-setup.js'
import { closeSetups, type HookSetup, preToolUseSetup } from './hook-occurrence.js'
import {
  heavyHeapNote,
  OVERHEAD_TARGET,
  overheadMethod,
  overheadSetups,
  overheadTable,
  sessionLogNote,
  timeOverhead,
} from './hook-overhead.js'
import { fmt } from './measure.js'
import { forkCostByRss, forkCostNote } from './raw-spawn.js'
import type { Section } from './report.js'

export type { OverheadRow } from './hook-overhead.js'

const SHELL = '/bin/bash'

/** A kernel with one PreToolUse handler `true`, a started session (the dialect keeps its state per session), and one occurrence's call. */
async function dialect(dir: string, processRunner?: ProcessRunner, plugins?: Plugin[]): Promise<HookSetup> {
  const { kernel } = codexKernel({ dir, commands: ['true'], ...(processRunner ? { processRunner } : {}), ...(plugins ? { plugins } : {}) })
  return preToolUseSetup(kernel)
}

export async function codexHookOverheadBench(options: { calls: number; warmup: number }): Promise<Section> {
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-codex-overhead-'))
  const setups: HookSetup[] = []
  try {
    const overhead = await overheadSetups(dialect, root, setups)
    // The exact stdin the dialect sends, so that every spawn variant writes the same bytes.
    const stdin = overhead.instant.lastStdin
    if (!stdin.includes('"hook_event_name":"PreToolUse"')) throw new Error(`codex-overhead: unexpected hook stdin ${stdin}`)
    const cwd = overhead.measured.session.cwd
    const runOptions: ProcessRunOptions & { stdin: string } = { command: 'true', shell: SHELL, cwd, stdin, timeoutMs: 600_000 }
    const times = await timeOverhead('codex-overhead', SHELL, overhead, setups, runOptions, options)
    const byRss = await forkCostByRss(SHELL)
    const { rows } = times
    return {
      title: '(d) Codex dialect: one trivial PreToolUse hook (`true`) vs a raw spawn of `/bin/bash -c true`',
      ...overheadTable(times),
      notes: [
        overheadMethod(options) +
          'for a `shell` call (Codex name `Bash`) on a started session, with `hooks.json` = one PreToolUse handler `true`. ' +
          `The spawn rows write the same ${fmt(Buffer.byteLength(stdin))}-byte payload the dialect sends. CPU is this process's ` +
          `(all threads) per call. Target from the issue: the dialect within ${OVERHEAD_TARGET}× of the raw spawn.`,
        sessionLogNote(times),
        heavyHeapNote(times),
        forkCostNote(byRss),
      ],
      data: {
        options,
        target: OVERHEAD_TARGET,
        stdinBytes: Buffer.byteLength(stdin),
        logEventsPerOccurrence: times.logEvents,
        logBytesPerOccurrence: times.logBytes,
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
