import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import type { Kernel } from '@harness-kernel/kernel'
import { type BenchKernelOptions, benchKernel } from './bench-kernel.js'

/**
 * Claude Code settings with one PreToolUse group (matcher `Bash`) per entry of `groups`, each holding one command handler
 * per command; no groups: no hooks. Identical command strings run once per occurrence (Claude Code dedups by command), so
 * handlers meant to run side by side need distinct strings.
 */
export function preToolUseSettings(groups: readonly (readonly string[])[]): unknown {
  if (groups.length === 0) return {}
  return {
    hooks: {
      PreToolUse: groups.map((commands) => ({ matcher: 'Bash', hooks: commands.map((command) => ({ type: 'command', command })) })),
    },
  }
}

export interface ClaudeCodeKernelOptions extends BenchKernelOptions {
  /** A fresh directory of its own: gets `config/` (the Claude config dir, empty), `cwd/` (the project) and `sessions/`. */
  dir: string
  /** PreToolUse groups (matcher `Bash`), each a list of commands; written to `cwd/.claude/settings.json`. */
  groups: readonly (readonly string[])[]
}

/**
 * `createKernel([scriptedModel, tools(), claudeCodeHooks({ configDir, managedSettingsPath: false })])` with the hooks in the
 * project's `.claude/settings.json` (where the real Claude Code runs of `claude-code-real` have them too), an empty config
 * dir and no managed settings, so nothing from this machine's `~/.claude` or `/etc/claude-code` leaks in.
 */
export function claudeCodeKernel(options: ClaudeCodeKernelOptions): { kernel: Kernel; cwd: string } {
  const config = join(options.dir, 'config')
  const cwd = join(options.dir, 'cwd')
  mkdirSync(config, { recursive: true })
  mkdirSync(join(cwd, '.claude'), { recursive: true })
  writeFileSync(join(cwd, '.claude', 'settings.json'), `${JSON.stringify(preToolUseSettings(options.groups))}\n`)
  const dialect = claudeCodeHooks({
    configDir: config,
    managedSettingsPath: false,
    envFileDir: join(options.dir, 'env'),
    hookOutputDir: join(options.dir, 'hook-output'),
  })
  return { kernel: benchKernel(options, dialect, cwd), cwd }
}
