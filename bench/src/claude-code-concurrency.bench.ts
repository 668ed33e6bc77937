import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { definePlugin, type Kernel, type Session, type ToolCallPayload } from '@harness-kernel/kernel'
import { claudeCodeKernel } from './claude-code-setup.js'
import { type Call, type CallStats, fmt, perCall } from './measure.js'
import type { Section } from './report.js'

const TARGET = 1.5
const SHELL = '/bin/sh'

interface Occurrence {
  kernel: Kernel
  session: Session
  run: () => Promise<unknown>
  /** `hook/run` events recorded so far. */
  runs: () => number
  /** Per handler, the start and end (ms since the epoch) of its last run, from the `hook/run` records. */
  lastWindows: () => { startedAt: number; completedAt: number }[]
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
  let runs = 0
  let windows: { startedAt: number; completedAt: number }[] = []
  const probe = definePlugin({
    name: 'bench-hook-runs',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-hook-runs', ({ event }) => {
        if (event.type !== 'hook/run') return
        runs++
        if (event.startedAt !== undefined && event.completedAt !== undefined) {
          windows.push({ startedAt: event.startedAt, completedAt: event.completedAt })
        }
      })
    },
  })
  const { kernel } = claudeCodeKernel({ dir, groups: handlerGroups(command, handlers, groups), plugins: [probe] })
  await kernel.ready
  const session = await kernel.startSession()
  const payload: ToolCallPayload = {
    session,
    turn: { id: 'bench-turn', number: 1 },
    step: 1,
    signal: new AbortController().signal,
    call: { id: 'call_bench', name: 'shell', input: { command: 'echo hi' } },
  }
  let last: typeof windows = []
  return {
    kernel,
    session,
    run: async () => {
      windows = []
      const result = await kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload)
      last = windows
      return result
    },
    runs: () => runs,
    lastWindows: () => last,
  }
}

/** `count` raw spawns of `sh -c <command>` at once, all awaited: what the machine gives without the dialect. */
const rawParallel = (command: string, count: number) => () =>
  Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(SHELL, ['-c', command])
          child.once('error', reject)
          child.once('close', resolve)
        }),
    ),
  )

interface Pair {
  label: string
  one: string
  many: string
}

export interface ConcurrencyRow {
  label: string
  one: CallStats
  many: CallStats
  ratio: number
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
    const make = async (name: string, command: string, handlers: number) => {
      const setup = await occurrence(join(root, name), command, handlers, handlers === 1 ? 1 : options.groups)
      setups.push(setup)
      return setup
    }
    const sleepOne = await make('sleep-1', 'sleep 0.2', 1)
    const sleepMany = await make(`sleep-${n}`, 'sleep 0.2', n)
    const trueOne = await make('true-1', 'true', 1)
    const trueMany = await make(`true-${n}`, 'true', n)
    const pairs: Pair[] = [
      { label: 'dialect, handlers `sleep 0.2`', one: 'dialect sleep 1', many: `dialect sleep ${n}` },
      { label: 'raw spawns at once, `sleep 0.2`', one: 'raw sleep 1', many: `raw sleep ${n}` },
      { label: 'dialect, handlers `true`', one: 'dialect true 1', many: `dialect true ${n}` },
      { label: 'raw spawns at once, `true`', one: 'raw true 1', many: `raw true ${n}` },
    ]
    // The last sleep-n occurrence's hook/run windows, checked after every run: all n started before the first one ended.
    const overlaps: number[] = []
    const variants: Record<string, Call> = {
      'dialect sleep 1': sleepOne.run,
      [`dialect sleep ${n}`]: async () => {
        await sleepMany.run()
        const windows = sleepMany.lastWindows()
        if (windows.length === n) {
          overlaps.push(Math.min(...windows.map((w) => w.completedAt)) - Math.max(...windows.map((w) => w.startedAt)))
        }
      },
      'raw sleep 1': rawParallel('sleep 0.2', 1),
      [`raw sleep ${n}`]: rawParallel('sleep 0.2', n),
      'dialect true 1': trueOne.run,
      [`dialect true ${n}`]: trueMany.run,
      'raw true 1': rawParallel('true', 1),
      [`raw true ${n}`]: rawParallel('true', n),
    }
    const stats = await perCall(variants, { warmup: options.warmup, samples: options.runs })
    const rounds = options.warmup + options.runs
    for (const [setup, handlers] of [
      [sleepOne, 1],
      [sleepMany, n],
      [trueOne, 1],
      [trueMany, n],
    ] as const) {
      if (setup.runs() !== rounds * handlers)
        throw new Error(`claude-code-concurrency: ${setup.runs()} hook runs, expected ${rounds * handlers}`)
    }
    if (overlaps.length !== rounds)
      throw new Error(`claude-code-concurrency: ${overlaps.length} occurrences with ${n} timed runs, expected ${rounds}`)
    const allOverlapped = overlaps.every((overlap) => overlap > 0)
    const rows: ConcurrencyRow[] = pairs.map((pair) => {
      const one = stats[pair.one]!
      const many = stats[pair.many]!
      return { label: pair.label, one, many, ratio: many.wallMs.median / one.wallMs.median }
    })
    const groups = handlerGroups('sleep 0.2', n, options.groups)
    return {
      title: `(i) Claude Code dialect: ${n} matching PreToolUse handlers (${groups.length} groups) in one occurrence vs one handler`,
      head: ['what runs', '1: ms (median)', '1: p99', `${n}: ms (median)`, `${n}: p99`, `${n} − 1: ms`, `${n} / 1`, `under ${TARGET}×`],
      rows: rows.map((row, index) => [
        row.label,
        fmt(row.one.wallMs.median, 1),
        fmt(row.one.wallMs.p99, 1),
        fmt(row.many.wallMs.median, 1),
        fmt(row.many.wallMs.p99, 1),
        fmt(row.many.wallMs.median - row.one.wallMs.median, 1),
        `${fmt(row.ratio, 2)}×`,
        index === 0 ? (row.ratio < TARGET ? 'yes' : 'no') : '',
      ]),
      notes: [
        `Wall time of one PreToolUse occurrence (\`kernel.hooks.toolPreExecute.promise\` on a started session) whose project ` +
          `settings have 1 handler, or ${n} handlers in ${groups.length} groups of ${groups.map((group) => group.length).join(' + ')} ` +
          `(matcher \`Bash\`; the ${n} command strings differ by a trailing comment, \`sleep 0.2 # 1\` … \`# ${n}\`, since ` +
          `identical strings run once); median of ${options.runs} runs after ${options.warmup} warmup runs, all variants ` +
          `interleaved, a full GC before each. "raw spawns at once": 1 or ${n} \`spawn('/bin/sh', ['-c', cmd])\` started together, ` +
          `all awaited, for what this machine gives without the dialect. Target: ${n} × \`sleep 0.2\` under ${TARGET}× one.`,
        `They start at once: in ${allOverlapped ? 'every one' : 'not every one'} of the ${rounds} ${n}-handler \`sleep 0.2\` ` +
          `occurrences, all ${n} \`hook/run\` records started before the first of them completed (overlap of all ${n}: median ` +
          `${fmt(overlaps.sort((a, b) => a - b)[overlaps.length >> 1]!)} ms of the ~200 ms each sleeps).`,
      ],
      data: { options, target: TARGET, groups, overlapsMs: overlaps, allOverlapped, rows },
    }
  } finally {
    for (const setup of setups) {
      await setup.session.end()
      await setup.kernel.dispose()
    }
    rmSync(root, { recursive: true, force: true })
  }
}
