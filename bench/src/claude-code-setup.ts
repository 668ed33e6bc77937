import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { createKernel, definePlugin, type Kernel, type KernelOptions, type Plugin, type ProcessRunner } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

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

export interface ClaudeCodeKernelOptions {
  /** A fresh directory of its own: gets `config/` (the Claude config dir, empty), `cwd/` (the project) and `sessions/`. */
  dir: string
  /** PreToolUse groups (matcher `Bash`), each a list of commands; written to `cwd/.claude/settings.json`. */
  groups: readonly (readonly string[])[]
  /** The scripted model's answers; default one text answer. */
  script?: ScriptStep[]
  /** Replaces the kernel's `processRunner` (the dialect resolves it in its setup, so it is provided before). */
  processRunner?: ProcessRunner
  /** More plugins, after the dialect. */
  plugins?: Plugin[]
  fsync?: KernelOptions['fsync']
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
  const runner = options.processRunner
  const provideRunner =
    runner === undefined ? [] : [definePlugin({ name: 'bench-process-runner', setup: (kernel) => kernel.provide('processRunner', runner) })]
  const kernel = createKernel(
    [
      scriptedModel({ script: options.script ?? [{ text: 'done' }], record: false }),
      tools(),
      ...provideRunner,
      claudeCodeHooks({
        configDir: config,
        managedSettingsPath: false,
        envFileDir: join(options.dir, 'env'),
        hookOutputDir: join(options.dir, 'hook-output'),
      }),
      ...(options.plugins ?? []),
    ],
    { cwd, sessionsDir: join(options.dir, 'sessions'), ...(options.fsync === undefined ? {} : { fsync: options.fsync }) },
  )
  return { kernel, cwd }
}
