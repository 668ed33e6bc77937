import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin } from '@harness-kernel/kernel'
import { AsyncSeriesWaterfallHook } from 'tapable'
import { type Hook, type Mode, payload, tapFn } from './dispatch-fixtures.js'
import { compare, fmt, type Stats } from './measure.js'
import type { Section } from './report.js'

interface Config {
  taps: number
  mode: Mode
}

const CONFIGS: Config[] = [
  { taps: 0, mode: 'keep' },
  { taps: 1, mode: 'keep' },
  { taps: 10, mode: 'keep' },
  { taps: 1, mode: 'allow' },
  { taps: 10, mode: 'allow' },
]
const TARGET = 1.5

const label = ({ taps, mode }: Config) => (taps === 0 ? '0 taps' : `${taps} tap${taps === 1 ? '' : 's'}, ${mode}`)

function bareHook({ taps, mode }: Config): Hook {
  const hook: Hook = new AsyncSeriesWaterfallHook(['decision', 'payload'])
  for (let i = 0; i < taps; i++) hook.tapPromise(`tap${i}`, tapFn[mode])
  return hook
}

/** Kernel hooks can only be tapped in a plugin's setup: one kernel per configuration. */
async function kernelHook({ taps, mode }: Config, dir: string) {
  const plugin = definePlugin({
    name: 'bench-taps',
    setup(kernel) {
      for (let i = 0; i < taps; i++) kernel.hooks.toolPreExecute.tapPromise(`tap${i}`, tapFn[mode])
    },
  })
  const kernel = createKernel([plugin], { cwd: dir, sessionsDir: dir })
  await kernel.ready
  return { hook: kernel.hooks.toolPreExecute, dispose: () => kernel.dispose() }
}

const drive = (hook: Hook) => async (ops: number) => {
  for (let i = 0; i < ops; i++) await hook.promise({ kind: 'allow' }, payload)
}

export interface DispatchRow {
  config: string
  bare: Stats
  kernel: Stats
  ratio: number
}

export async function dispatchBench(options: { ops: number; warmup: number; samples: number }): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-dispatch-'))
  const rows: DispatchRow[] = []
  try {
    for (const config of CONFIGS) {
      const kernel = await kernelHook(config, dir)
      const bare = bareHook(config)
      const result = await kernel.hook.promise({ kind: 'allow' }, payload)
      if (result.kind !== 'allow') throw new Error(`dispatch: the kernel hook returned ${JSON.stringify(result)}`)
      const stats = await compare({ bare: drive(bare), kernel: drive(kernel.hook) }, options)
      rows.push({ config: label(config), bare: stats.bare!, kernel: stats.kernel!, ratio: stats.kernel!.median / stats.bare!.median })
      await kernel.dispose()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    title: '(a) Dispatch: `tools/pre-execute` through the kernel vs a bare tapable `AsyncSeriesWaterfallHook`',
    head: ['taps', 'bare ns/call (median)', 'bare p99', 'kernel ns/call (median)', 'kernel p99', 'kernel / bare', `within ${TARGET}×`],
    rows: rows.map((row) => [
      row.config,
      fmt(row.bare.median),
      fmt(row.bare.p99),
      fmt(row.kernel.median),
      fmt(row.kernel.p99),
      `${fmt(row.ratio, 2)}×`,
      row.config.startsWith('10') ? (row.ratio <= TARGET ? 'yes' : 'no') : '',
    ]),
    notes: [
      `${options.samples} samples of ${fmt(options.ops)} sequential \`await hook.promise({ kind: 'allow' }, payload)\` calls per variant, ` +
        `after ${options.warmup} warmup samples, bare and kernel interleaved. p99 is over the per-sample means. ` +
        '`keep`: taps resolve undefined; `allow`: each tap returns a fresh `{ kind: "allow" }` (validated by the kernel).',
    ],
    data: { options, target: TARGET, rows },
  }
}
