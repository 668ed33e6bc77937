import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { codexHooks } from '@harness-kernel/codex'
import { createKernel, definePlugin, type Kernel, type KernelOptions, type Plugin, type ProcessRunner } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

/** A Codex `hooks.json` with one `PreToolUse` group (matcher `Bash`) holding one handler per command; no commands: no hooks. */
export function preToolUseHooks(commands: readonly string[]): unknown {
  if (commands.length === 0) return { hooks: {} }
  return { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: commands.map((command) => ({ type: 'command', command })) }] } }
}

export interface CodexKernelOptions {
  /** A fresh directory of its own: gets `home/hooks.json` (CODEX_HOME), `cwd/` and `sessions/`. */
  dir: string
  /** One PreToolUse handler (matcher `Bash`) per command. */
  commands: readonly string[]
  /** The scripted model's answers; default one text answer. */
  script?: ScriptStep[]
  /** Replaces the kernel's `processRunner` (the dialect resolves it in its setup, so it is provided before). */
  processRunner?: ProcessRunner
  /** More plugins, after the dialect. */
  plugins?: Plugin[]
  fsync?: KernelOptions['fsync']
}

/** `createKernel([scriptedModel, tools(), codexHooks({ codexHome, trust: 'all', trustStore: false })])` on a fresh CODEX_HOME. */
export function codexKernel(options: CodexKernelOptions): { kernel: Kernel; cwd: string } {
  const home = join(options.dir, 'home')
  const cwd = join(options.dir, 'cwd')
  mkdirSync(home, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(home, 'hooks.json'), `${JSON.stringify(preToolUseHooks(options.commands))}\n`)
  const runner = options.processRunner
  const provideRunner =
    runner === undefined ? [] : [definePlugin({ name: 'bench-process-runner', setup: (kernel) => kernel.provide('processRunner', runner) })]
  const kernel = createKernel(
    [
      scriptedModel({ script: options.script ?? [{ text: 'done' }], record: false }),
      tools(),
      ...provideRunner,
      codexHooks({ codexHome: home, trust: 'all', trustStore: false }),
      ...(options.plugins ?? []),
    ],
    { cwd, sessionsDir: join(options.dir, 'sessions'), ...(options.fsync === undefined ? {} : { fsync: options.fsync }) },
  )
  return { kernel, cwd }
}
