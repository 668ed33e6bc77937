import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { codexHooks } from '@harness-kernel/codex'
import { createKernel, definePlugin, type Kernel, type ModelProvider, type Plugin } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

/** `hooks` of a Codex hooks.json and of a Claude Code settings.json: `{ PreToolUse: [{ hooks: [{ type, command, … }] }] }`. */
export type HooksConfig = Record<string, unknown[]>

export interface HookKernel {
  kernel: Kernel
  dir: string
  /** The session's cwd (the Claude Code project). */
  project: string
  /** Disposes the kernel and removes the temp dir. */
  dispose(): Promise<void>
}

/**
 * A kernel with the scripted model, the built-in tools, and both hook dialects, each configured with its own hooks
 * in a fresh temp dir (nothing from the user's ~/.codex or ~/.claude).
 */
export function hookKernel(options: {
  /** The model: a script for the scripted model, or a provider. */
  model: ScriptStep[] | ModelProvider
  codex?: HooksConfig
  claudeCode?: HooksConfig
}): HookKernel {
  const dir = mkdtempSync(join(tmpdir(), 'hk-reliability-'))
  const codexHome = join(dir, 'codex-home')
  const project = join(dir, 'project')
  const claudeConfig = join(dir, 'claude-config')
  for (const folder of [codexHome, join(project, '.claude'), claudeConfig]) mkdirSync(folder, { recursive: true })
  writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: options.codex ?? {} }))
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: options.claudeCode ?? {} }))
  const kernel = createKernel(
    [
      Array.isArray(options.model) ? scriptedModel({ script: options.model }) : modelPlugin(options.model),
      tools(),
      codexHooks({ codexHome, trust: 'all', trustStore: false, tmpDir: join(dir, 'codex-tmp') }),
      claudeCodeHooks({
        configDir: claudeConfig,
        managedSettingsPath: false,
        envFileDir: join(dir, 'claude-env'),
        hookOutputDir: join(dir, 'claude-hook-output'),
      }),
    ],
    { cwd: project, sessionsDir: join(dir, 'sessions'), modelRetry: { initialDelayMs: 1, maxDelayMs: 2 } },
  )
  const dispose = async () => {
    await kernel.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
  return { kernel, dir, project, dispose }
}

/** One group of command handlers for an event, in the shape both dialects read. */
export function commandGroup(commands: readonly string[], extra: Record<string, unknown> = {}): unknown[] {
  return [{ hooks: commands.map((command) => ({ type: 'command', command, ...extra })) }]
}

function modelPlugin(model: ModelProvider): Plugin {
  return definePlugin({ name: 'model', setup: (api) => api.provide('model', model) })
}
