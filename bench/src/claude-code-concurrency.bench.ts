import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeKernel } from './claude-code-setup.js'
import { CONCURRENCY_TARGET, concurrencySetups, concurrencyTable, timeConcurrency } from './hook-concurrency.js'
import { closeSetups, type HookSetup, hookRunProbe, preToolUseSetup, type RunWindow } from './hook-occurrence.js'
import { fmt } from './measure.js'
import type { Section } from './report.js'

export type { ConcurrencyRow } from './hook-concurrency.js'

const SHELL = '/bin/sh'

interface Occurrence extends HookSetup {
  /** `hook/run` events recorded so far. */
  runs: () => number
  /** Per handler, the start and end (ms since the epoch) of its runs since the last call, from the `hook/run` records. */
  takeWindows: () => RunWindow[]
}

/**
 * `handlers` copies of `command` split into `groups` PreToolUse groups (matcher `Bash`). Each copy gets a distinct trailing
 * comment (`sleep 0.2 # 3`): Claude Code runs identical command strings once per occurrence, and so does the dialect.
 */
function handlerGroups(command: string, handlers: number, groups: number): string[][] {
  const commands = Array.from({ length: handlers }, (_, index) => (handlers === 1 ? command : `${command} # ${index + 1}`))
  const size = Math.ceil(handlers / groups)
  return Array.from({ length: Math.ceil(handlers / size) }, (_, index) => commands.slice(index * size, (index + 1) * size))
}

async function occurrence(dir: string, command: string, handlers: number, groups: number): Promise<Occurrence> {
  const probe = hookRunProbe()
  const { kernel } = claudeCodeKernel({ dir, groups: handlerGroups(command, handlers, groups), plugins: [probe.plugin] })
  return { ...(await preToolUseSetup(kernel)), runs: probe.runs, takeWindows: probe.take }
}

export async function claudeCodeConcurrencyBench(options: {
  handlers: number
  groups: number
  runs: number
  warmup: number
}): Promise<Section> {
  const n = options.handlers
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-claude-code-concurrency-'))
  const setups: Occurrence[] = []
  try {
    const four = await concurrencySetups(n, async (name, command, handlers) => {
      const setup = await occurrence(join(root, name), command, handlers, handlers === 1 ? 1 : options.groups)
      setups.push(setup)
      return setup
    })
    // The sleep-n occurrence's hook/run windows, checked after every run: all n started before the first one ended.
    const overlaps: number[] = []
    const { sleepMany } = four
    const { rows, rounds } = await timeConcurrency('claude-code-concurrency', SHELL, n, four, (setup) => setup.runs(), {
      ...options,
      sleepMany: async () => {
        await sleepMany.occurrence()
        const windows = sleepMany.takeWindows()
        if (windows.length === n) {
          overlaps.push(Math.min(...windows.map((w) => w.completedAt)) - Math.max(...windows.map((w) => w.startedAt)))
        }
      },
    })
    if (overlaps.length !== rounds)
      throw new Error(`claude-code-concurrency: ${overlaps.length} occurrences with ${n} timed runs, expected ${rounds}`)
    const allOverlapped = overlaps.every((overlap) => overlap > 0)
    const groups = handlerGroups('sleep 0.2', n, options.groups)
    return {
      title: `(i) Claude Code dialect: ${n} matching PreToolUse handlers (${groups.length} groups) in one occurrence vs one handler`,
      ...concurrencyTable(rows, n),
      notes: [
        `Wall time of one PreToolUse occurrence (\`kernel.hooks.toolPreExecute.promise\` on a started session) whose project ` +
          `settings have 1 handler, or ${n} handlers in ${groups.length} groups of ${groups.map((group) => group.length).join(' + ')} ` +
          `(matcher \`Bash\`; the ${n} command strings differ by a trailing comment, \`sleep 0.2 # 1\` … \`# ${n}\`, since ` +
          `identical strings run once); median of ${options.runs} runs after ${options.warmup} warmup runs, all variants ` +
          `interleaved, a full GC before each. "raw spawns at once": 1 or ${n} \`spawn('/bin/sh', ['-c', cmd])\` started together, ` +
          `all awaited, for what this machine gives without the dialect. Target: ${n} × \`sleep 0.2\` under ${CONCURRENCY_TARGET}× one.`,
        `They start at once: in ${allOverlapped ? 'every one' : 'not every one'} of the ${rounds} ${n}-handler \`sleep 0.2\` ` +
          `occurrences, all ${n} \`hook/run\` records started before the first of them completed (overlap of all ${n}: median ` +
          `${fmt(overlaps.sort((a, b) => a - b)[overlaps.length >> 1]!)} ms of the ~200 ms each sleeps).`,
      ],
      data: { options, target: CONCURRENCY_TARGET, groups, overlapsMs: overlaps, allOverlapped, rows },
    }
  } finally {
    await closeSetups(setups, root)
  }
}
