import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { codexHooks } from '@harness-kernel/codex'
import type { Kernel } from '@harness-kernel/kernel'
import { type BenchKernelOptions, benchKernel } from './bench-kernel.js'

/** A Codex `hooks.json` with one `PreToolUse` group (matcher `Bash`) holding one handler per command; no commands: no hooks. */
export function preToolUseHooks(commands: readonly string[]): unknown {
  if (commands.length === 0) return { hooks: {} }
  return { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: commands.map((command) => ({ type: 'command', command })) }] } }
}

export interface CodexKernelOptions extends BenchKernelOptions {
  /** A fresh directory of its own: gets `home/hooks.json` (CODEX_HOME), `cwd/` and `sessions/`. */
  dir: string
  /** One PreToolUse handler (matcher `Bash`) per command. */
  commands: readonly string[]
}

/** `createKernel([scriptedModel, tools(), codexHooks({ codexHome, trust: 'all', trustStore: false })])` on a fresh CODEX_HOME. */
export function codexKernel(options: CodexKernelOptions): { kernel: Kernel; cwd: string } {
  const home = join(options.dir, 'home')
  const cwd = join(options.dir, 'cwd')
  mkdirSync(home, { recursive: true })
  mkdirSync(cwd, { recursive: true })
  writeFileSync(join(home, 'hooks.json'), `${JSON.stringify(preToolUseHooks(options.commands))}\n`)
  const kernel = benchKernel(options, codexHooks({ codexHome: home, trust: 'all', trustStore: false }), cwd)
  return { kernel, cwd }
}
