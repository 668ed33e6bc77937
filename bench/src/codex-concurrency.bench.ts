import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { definePlugin, type Kernel, type Session, type ToolCallPayload } from '@harness-kernel/kernel'
import { codexKernel } from './codex-setup.js'
import { type Call, type CallStats, fmt, perCall } from './measure.js'
import type { Section } from './report.js'

const TARGET = 1.5
const SHELL = '/bin/bash'

interface Occurrence {
  kernel: Kernel
  session: Session
  run: () => Promise<unknown>
  /** `hook/run` events recorded so far. */
  runs: () => number
}

/** A kernel whose hooks.json has `handlers` PreToolUse handlers (one group, matcher `Bash`), each `command`. */
async function occurrence(dir: string, command: string, handlers: number): Promise<Occurrence> {
  let runs = 0
  const probe = definePlugin({
    name: 'bench-hook-runs',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('bench-hook-runs', ({ event }) => {
        if (event.type === 'hook/run') runs++
      })
    },
  })
  const { kernel } = codexKernel({ dir, commands: Array.from({ length: handlers }, () => command), plugins: [probe] })
  await kernel.ready
  const session = await kernel.startSession()
  const payload: ToolCallPayload = {
    session,
    turn: { id: 'bench-turn', number: 1 },
    step: 1,
    signal: new AbortController().signal,
    call: { id: 'call_bench', name: 'shell', input: { command: 'echo hi' } },
  }
  return { kernel, session, run: () => kernel.hooks.toolPreExecute.promise({ kind: 'allow' }, payload), runs: () => runs }
}

/** `count` raw spawns of `bash -c <command>` at once, all awaited: what the machine gives without the dialect. */
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

export async function codexConcurrencyBench(options: { handlers: number; runs: number; warmup: number }): Promise<Section> {
  const n = options.handlers
  const root = mkdtempSync(join(tmpdir(), 'hk-bench-codex-concurrency-'))
  const setups: Occurrence[] = []
  try {
    const make = async (name: string, command: string, handlers: number) => {
      const setup = await occurrence(join(root, name), command, handlers)
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
    const variants: Record<string, Call> = {
      'dialect sleep 1': sleepOne.run,
      [`dialect sleep ${n}`]: sleepMany.run,
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
      if (setup.runs() !== rounds * handlers) throw new Error(`codex-concurrency: ${setup.runs()} hook runs, expected ${rounds * handlers}`)
    }
    const rows: ConcurrencyRow[] = pairs.map((pair) => {
      const one = stats[pair.one]!
      const many = stats[pair.many]!
      return { label: pair.label, one, many, ratio: many.wallMs.median / one.wallMs.median }
    })
    return {
      title: `(e) Codex dialect: ${n} matching PreToolUse handlers in one occurrence vs one handler`,
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
        `Wall time of one PreToolUse occurrence (\`kernel.hooks.toolPreExecute.promise\` on a started session) whose hooks.json ` +
          `has 1 or ${n} handlers matching \`Bash\`; median of ${options.runs} runs after ${options.warmup} warmup runs, all variants ` +
          `interleaved, a full GC before each. "raw spawns at once": 1 or ${n} \`spawn('/bin/bash', ['-c', cmd])\` started together, ` +
          `all awaited, for what this machine gives without the dialect (the spawns of one occurrence are made one after the other by ` +
          `the main thread, each blocked in fork + exec). Target from the issue: ${n} × \`sleep 0.2\` under ${TARGET}× one.`,
      ],
      data: { options, target: TARGET, rows },
    }
  } finally {
    for (const setup of setups) {
      await setup.session.end()
      await setup.kernel.dispose()
    }
    rmSync(root, { recursive: true, force: true })
  }
}
