import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKernel,
  definePlugin,
  isVeto,
  type PreToolDecision,
  preToolDecisionSchema,
  type ToolCallPayload,
} from '@harness-kernel/kernel'
import { AsyncSeriesWaterfallHook } from 'tapable'
import { type Hook, type Mode, payload, type TapFn, tapFn } from './dispatch-fixtures.js'
import { compare, fmt, type Stats } from './measure.js'
import type { Section } from './report.js'

/**
 * Where the kernel's dispatch overhead comes from, at 10 taps: bare tapable with the same taps
 * wrapped in ways that isolate one cost each, the kernel itself, and a prototype of a cheaper design
 * (one async loop per call installed as the hook's `compile`, instead of a wrapper around every tap).
 * Opt-in: `npm run bench -- dispatch-breakdown`.
 */

type Wrap = (fn: TapFn) => TapFn

const TAPS = 10

function wrapped(mode: Mode, wrap: Wrap = (fn) => fn): Hook {
  const hook: Hook = new AsyncSeriesWaterfallHook(['decision', 'payload'])
  for (let i = 0; i < TAPS; i++) hook.tapPromise(`tap${i}`, wrap(tapFn[mode]))
  return hook
}

const WRAPS: Record<string, Wrap> = {
  'bare + a function layer per tap': (fn) => (value, payload) => fn(value, payload),
  'bare + one extra .then per tap': (fn) => (value, payload) => fn(value, payload).then((out) => out),
}

/** Valid without zod: `{ kind }` alone, for a kind whose variant requires nothing else. */
const BARE_KINDS = new Set(['allow', 'ask'])
function bareKind(out: object): boolean {
  if (Object.getPrototypeOf(out) !== Object.prototype) return false
  let keys = 0
  for (const key in out) if (++keys > 1 || key !== 'kind') return false
  return BARE_KINDS.has((out as { kind?: string }).kind as string)
}

/** Prototype of the suggested hooks.ts change: the hook's compiled call is one async loop over the sorted taps. */
function prototype(mode: Mode, fastPath: boolean): Hook {
  const hook: Hook = new AsyncSeriesWaterfallHook(['decision', 'payload'])
  const compilable = hook as unknown as { compile(options: { taps: { fn: TapFn }[] }): unknown }
  compilable.compile = ({ taps }) => {
    const fns = taps.map((tap) => tap.fn)
    return async (value: PreToolDecision, payload: ToolCallPayload) => {
      for (const fn of fns) {
        if (isVeto(value)) break
        let out: PreToolDecision | undefined
        try {
          out = await fn(value, payload)
        } catch (error) {
          throw new Error(`attributed: ${String(error)}`, { cause: error })
        }
        if (out === undefined || out === value) continue
        if (!(fastPath && bareKind(out)) && !preToolDecisionSchema.safeParse(out).success) throw new Error('invalid decision')
        value = out
      }
      return value
    }
  }
  for (let i = 0; i < TAPS; i++) hook.tapPromise(`tap${i}`, tapFn[mode])
  return hook
}

const drive = (hook: Hook) => async (ops: number) => {
  for (let i = 0; i < ops; i++) await hook.promise({ kind: 'allow' }, payload)
}

const syncLoop = (fn: () => unknown) => (ops: number) => {
  for (let i = 0; i < ops; i++) fn()
}

export async function dispatchBreakdownBench(options: { ops: number; warmup: number; samples: number }): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-breakdown-'))
  const rows: { mode: Mode; variant: string; stats: Stats; ratio: number }[] = []
  try {
    for (const mode of ['keep', 'allow'] as const) {
      const plugin = definePlugin({
        name: 'bench-taps',
        setup(kernel) {
          for (let i = 0; i < TAPS; i++) kernel.hooks.toolPreExecute.tapPromise(`tap${i}`, tapFn[mode])
        },
      })
      const kernel = createKernel([plugin], { cwd: dir, sessionsDir: dir })
      await kernel.ready
      const variants: Record<string, Hook> = { bare: wrapped(mode) }
      for (const [name, wrap] of Object.entries(WRAPS)) variants[name] = wrapped(mode, wrap)
      variants.kernel = kernel.hooks.toolPreExecute
      variants['prototype: one async loop (compile)'] = prototype(mode, false)
      if (mode === 'allow') variants['prototype + `{ kind }` fast path'] = prototype(mode, true)
      const tasks = Object.fromEntries(Object.entries(variants).map(([name, hook]) => [name, drive(hook)]))
      const stats = await compare(tasks, options)
      for (const [variant, stat] of Object.entries(stats))
        rows.push({ mode, variant, stats: stat, ratio: stat.median / stats.bare!.median })
      await kernel.dispose()
    }
    const parts = await compare(
      {
        "zod preToolDecisionSchema.safeParse({ kind: 'allow' })": syncLoop(() => preToolDecisionSchema.safeParse({ kind: 'allow' })),
        "isVeto({ kind: 'allow' })": syncLoop(() => isVeto({ kind: 'allow' })),
      },
      { ...options, ops: options.ops * 5 },
    )
    for (const [variant, stat] of Object.entries(parts))
      rows.push({ mode: 'keep', variant: `${variant} (alone, sync)`, stats: stat, ratio: Number.NaN })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    title: `(a′) Dispatch breakdown at ${TAPS} taps: where the kernel's overhead comes from`,
    head: ['taps', 'variant', 'ns/call (median)', 'p99', 'vs bare'],
    textColumns: 2,
    rows: rows.map((row) => [
      row.variant.includes('alone') ? '' : `${TAPS}, ${row.mode}`,
      row.variant,
      fmt(row.stats.median),
      fmt(row.stats.p99),
      Number.isNaN(row.ratio) ? '' : `${fmt(row.ratio, 2)}×`,
    ]),
    notes: [`${options.samples} interleaved samples of ${fmt(options.ops)} calls per variant after ${options.warmup} warmup samples.`],
    data: { options, rows },
  }
}
