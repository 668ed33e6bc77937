import { join } from 'node:path'
import { createHarness, defineConfig, loadConfig, parseModelSpec } from '@harness-kernel/cli'
import { definePlugin } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { project } from './support.js'

describe('the package API', () => {
  it('createHarness composes a kernel from a config object and flags', async () => {
    const cwd = project({ 'script.yaml': '- text: composed\n' })
    const seen: string[] = []
    const observer = definePlugin({
      name: 'observer',
      setup(kernel) {
        kernel.hooks.sessionEvent.tap('observer', ({ event }) => {
          seen.push(event.type)
        })
      },
    })
    const harness = await createHarness({
      cwd,
      config: defineConfig({ model: 'scripted:script.yaml', system: 'Be brief.' }),
      sessionsDir: 'logs',
      env: { HARNESS_HOME: join(cwd, 'harness-home') },
      codex: { codexHome: 'codex-home' },
      claudeCode: { configDir: 'claude-home' },
      plugins: [observer],
    })
    try {
      expect(harness.kernel.plugins).toEqual([
        'tools',
        'compaction',
        'subagents',
        'codex-hooks',
        'claude-code-hooks',
        'scripted-model',
        'observer',
      ])
      expect(harness.sessionsDir).toBe(join(cwd, 'logs'))
      expect(harness.model).toBe('scripted:script.yaml')
      const session = await harness.kernel.startSession()
      const turn = await session.run('hi')
      expect(turn).toMatchObject({ status: 'completed', lastAssistantMessage: 'composed' })
      await session.end()
      expect(seen.at(-1)).toBe('session/end')
    } finally {
      await harness.kernel.dispose()
    }
  })

  it('codex: false leaves codexHooks() out of the defaults, claudeCode: false claudeCodeHooks()', async () => {
    const cwd = project({ 'script.yaml': '- text: composed\n' })
    const env = {
      HARNESS_HOME: join(cwd, 'harness-home'),
      CODEX_HOME: join(cwd, 'codex-home'),
      CLAUDE_CONFIG_DIR: join(cwd, 'claude-home'),
    }
    for (const [options, plugins, tool] of [
      [{ codex: false }, ['tools', 'compaction', 'subagents', 'claude-code-hooks', 'scripted-model'], 'Agent'],
      [{ claudeCode: false }, ['tools', 'compaction', 'subagents', 'codex-hooks', 'scripted-model'], 'spawn_agent'],
      [{ codex: false, claudeCode: false }, ['tools', 'compaction', 'subagents', 'scripted-model'], 'Agent'],
    ] as const) {
      const harness = await createHarness({ cwd, model: 'scripted:script.yaml', env, ...options })
      try {
        expect(harness.kernel.plugins).toEqual(plugins)
        // The subagent tool is Claude Code's, or Codex's when only Codex's hooks are in.
        expect(harness.kernel.resolve('tools').get(tool)).toBeDefined()
      } finally {
        await harness.kernel.dispose()
      }
    }
  })

  it('loadConfig finds nothing in an empty directory; parseModelSpec splits at the first colon', async () => {
    expect(await loadConfig({ cwd: project() })).toBeUndefined()
    expect(parseModelSpec('scripted:dir/a:b.yaml')).toEqual({ provider: 'scripted', ref: 'dir/a:b.yaml' })
  })
})
