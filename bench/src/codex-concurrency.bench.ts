import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { codexKernel } from './codex-setup.js'
import { CONCURRENCY_TARGET, concurrencySetups, concurrencyTable, timeConcurrency } from './hook-concurrency.js'
import { closeSetups, type HookSetup, hookRunProbe, preToolUseSetup } from './hook-occurrence.js'
import type { Section } from './report.js'

export type { ConcurrencyRow } from './hook-concurrency.js'

const SHELL = '/bin/bash'

interface Occurrence extends HookSetup {
  /** `hook/run` events recorded so far. */
  runs: () => number
}

/** A kernel whose hooks.json has `handlers` PreToolUse handlers (one group, matcher `Bash`), each `command`. */
async function occurrence(dir: string, command: string, handlers: number): Promise<Occurrence> {
  const probe = hookRunProbe()
  const { kernel } = codexKernel({ dir, commands: Array.from({ length: handlers }, () => command), plugins: [probe.plugin] })
  return { ...(await preToolUseSetup(kernel)), runs: probe.runs }
}

export async function codexConcurrencyBench(options: { handlers: number; runs: number; warmup: number }): Promise<Section> {
  const n = options.handlers
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-codex-concurrency-'))
  const setups: Occurrence[] = []
  try {
    const four = await concurrencySetups(n, async (name, command, handlers) => {
      const setup = await occurrence(join(root, name), command, handlers)
      setups.push(setup)
      return setup
    })
    const { rows } = await timeConcurrency('codex-concurrency', SHELL, n, four, (setup) => setup.runs(), options)
    return {
      title: `(e) Codex dialect: ${n} matching PreToolUse handlers in one occurrence vs one handler`,
      ...concurrencyTable(rows, n),
      notes: [
        `Wall time of one PreToolUse occurrence (\`kernel.hooks.toolPreExecute.promise\` on a started session) whose hooks.json ` +
          `has 1 or ${n} handlers matching \`Bash\`; median of ${options.runs} runs after ${options.warmup} warmup runs, all variants ` +
          `interleaved, a full GC before each. "raw spawns at once": 1 or ${n} \`spawn('/bin/bash', ['-c', cmd])\` started together, ` +
          `all awaited, for what this machine gives without the dialect (the spawns of one occurrence are made one after the other by ` +
          `the main thread, each blocked in fork + exec). Target from the issue: ${n} × \`sleep 0.2\` under ${CONCURRENCY_TARGET}× one.`,
      ],
      data: { options, target: CONCURRENCY_TARGET, rows },
    }
  } finally {
    await closeSetups(setups, root)
  }
}
