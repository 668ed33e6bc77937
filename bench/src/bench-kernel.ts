import { join } from 'node:path'
import { createKernel, definePlugin, type Kernel, type KernelOptions, type Plugin, type ProcessRunner } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

/** What every dialect benchmark's kernel can be given, whichever dialect it runs. */
export interface BenchKernelOptions {
  /** A fresh directory of its own: the kernel's session logs go to `sessions/` in it. */
  dir: string
  /** The scripted model's answers; default one text answer. */
  script?: ScriptStep[]
  /** Replaces the kernel's `processRunner` (the dialect resolves it in its setup, so it is provided before). */
  processRunner?: ProcessRunner
  /** More plugins, after the dialect. */
  plugins?: Plugin[]
  fsync?: KernelOptions['fsync']
}

/**
 * `createKernel([scriptedModel, tools(), (processRunner), dialect, ...plugins])` in `cwd`, the session logs in
 * `<dir>/sessions`: the kernel the Codex and Claude Code benchmarks share, around their own dialect plugin.
 */
export function benchKernel(options: BenchKernelOptions, dialect: Plugin, cwd: string): Kernel {
  const runner = options.processRunner
  const provideRunner =
    runner === undefined ? [] : [definePlugin({ name: 'bench-process-runner', setup: (kernel) => kernel.provide('processRunner', runner) })]
  return createKernel(
    [
      scriptedModel({ script: options.script ?? [{ text: 'done' }], record: false }),
      tools(),
      ...provideRunner,
      dialect,
      ...(options.plugins ?? []),
    ],
    { cwd, sessionsDir: join(options.dir, 'sessions'), ...(options.fsync === undefined ? {} : { fsync: options.fsync }) },
  )
}
