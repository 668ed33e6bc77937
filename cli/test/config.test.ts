import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, project, readJsonLines, SHELL_SCRIPT, sessionsIn } from './support.js'

interface RecordedRequest {
  n: number
  request: { system?: string; messages: { role: string; content: { type: string; output?: string; isError?: boolean }[] }[] }
}

/** The tool result the model saw in its second request. */
function toolResultSeen(cwd: string) {
  const requests = readJsonLines(join(cwd, 'requests.jsonl')) as RecordedRequest[]
  expect(requests.map((entry) => entry.n)).toEqual([1, 2])
  const tool = requests[1]!.request.messages.find((message) => message.role === 'tool')
  return tool?.content[0]
}

const MJS_CONFIG = `import { definePlugin } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'

const noShell = definePlugin({
  name: 'no-shell',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tapPromise('no-shell', async (decision, { call }) =>
      call.name === 'shell' ? { kind: 'deny', reason: 'shell is disabled by harness.config.mjs' } : decision,
    )
  },
})

export default {
  system: 'You are a careful agent.',
  plugins: [tools(), scriptedModel({ script: 'script.yaml', recordTo: 'requests.jsonl' }), noShell],
}
`

const TS_CONFIG = `import { defineConfig, type HarnessConfig } from '@harness-kernel/cli'
import { definePlugin, type Plugin, type PreToolDecision } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'

const reason: string = 'shell is disabled by harness.config.ts'

const noShell: Plugin = definePlugin({
  name: 'no-shell',
  setup(kernel) {
    kernel.hooks.toolPreExecute.tapPromise('no-shell', async (decision: PreToolDecision, { call }) =>
      call.name === 'shell' ? { kind: 'deny', reason } : decision,
    )
    return undefined
  },
})

const config: HarnessConfig = defineConfig({
  plugins: ({ defaults }) => [...defaults, scriptedModel({ script: 'script.yaml', recordTo: 'requests.jsonl' }), noShell],
})
export default config
`

describe('harness.config', () => {
  it('a .mjs config composes the plugins; its denial reaches the model', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT, 'harness.config.mjs': MJS_CONFIG })
    const result = await harness(['run', 'say hello'], { cwd })

    expect(result.stderr).toContain('[tool] shell {"command":"echo hello from shell"} denied')
    expect(result.stderr).toContain('[tool] shell error: shell is disabled by harness.config.mjs')
    expect(result.code).toBe(0)
    expect(toolResultSeen(cwd)).toEqual({
      type: 'tool_result',
      callId: 'call_1',
      output: 'shell is disabled by harness.config.mjs',
      isError: true,
    })
    const requests = readJsonLines(join(cwd, 'requests.jsonl')) as RecordedRequest[]
    expect(requests[0]!.request.system).toBe('You are a careful agent.')
  })

  it('a .ts config (defineConfig, a plugins function over the defaults) is loaded with tsx', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT, 'harness.config.ts': TS_CONFIG })
    const result = await harness(['run', 'say hello'], { cwd })

    expect(result.stderr).toContain('[tool] shell error: shell is disabled by harness.config.ts')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('All done.\nThe shell said hello.\n')
    expect(toolResultSeen(cwd)).toMatchObject({ output: 'shell is disabled by harness.config.ts', isError: true })
  })

  it('a .ts config in a CommonJS package: the error starts with the fix; renamed .mts, it loads', async () => {
    const ESM_CONFIG = `import { defineConfig } from '@harness-kernel/cli'\nexport default defineConfig({ model: 'scripted:script.yaml' })\n`
    const cwd = project({
      'package.json': '{ "name": "cjs-project" }\n',
      'harness.config.ts': ESM_CONFIG,
      'script.yaml': '- text: loaded\n',
    })
    const result = await harness(['run', 'hi'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.split('\n')[0]).toBe(
      `harness: harness.config.ts is TypeScript in a CommonJS package: rename it harness.config.mts, or add "type": "module" to ${join(cwd, 'package.json')}`,
    )
    expect(result.stderr).toContain(`(failed to load config ${join(cwd, 'harness.config.ts')}: `)

    renameSync(join(cwd, 'harness.config.ts'), join(cwd, 'harness.config.mts'))
    const renamed = await harness(['run', 'hi'], { cwd })
    expect(renamed.stderr).toContain('[turn] completed')
    expect(renamed.code).toBe(0)
    expect(renamed.stdout).toBe('loaded\n')
  })

  it('--config names a file; --model replaces a configured model plugin of the same name', async () => {
    const cwd = project({ 'script.yaml': SHELL_SCRIPT, 'other.yaml': '- text: from other.yaml\n', 'conf/custom.mjs': MJS_CONFIG })
    const result = await harness(['run', 'hi', '--config', 'conf/custom.mjs', '--model', 'scripted:other.yaml'], { cwd })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('from other.yaml\n')
  })

  it('the config can set the model and the sessions dir', async () => {
    const cwd = project({
      'script.yaml': '- text: configured\n',
      'harness.config.js': `export default { model: 'scripted:script.yaml', sessionsDir: 'logs' }\n`,
    })
    const result = await harness(['run', 'hi'], { cwd })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('configured\n')
    const ids = sessionsIn(join(cwd, 'logs'))
    expect(ids).toHaveLength(1)
    const list = await harness(['sessions', 'list', '--json'], { cwd })
    expect(JSON.parse(list.stdout).map((session: { id: string }) => session.id)).toEqual(ids)
  })

  it('config plugins without a model: exit 2', async () => {
    const cwd = project({
      'harness.config.mjs': `import { tools } from '@harness-kernel/tools'\nexport default { plugins: [tools()] }\n`,
    })
    const result = await harness(['run', 'hi'], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('harness: no model: the configured plugins provide none')
  })

  it('a plugin that blocks the turn: exit 3', async () => {
    const cwd = project({
      'harness.config.mjs': `export default {
  model: 'scripted:script.yaml',
  plugins: ({ defaults }) => [...defaults, {
    name: 'gate',
    setup(kernel) {
      kernel.hooks.preStep.tapPromise('gate', async () => ({ kind: 'reject', reason: 'prompts are closed today' }))
    },
  }],
}
`,
      'script.yaml': '- text: unused\n',
    })
    const result = await harness(['run', 'hi', '--json'], { cwd })
    expect(result.code).toBe(3)
    expect(JSON.parse(result.stdout).turn).toMatchObject({ status: 'blocked', reason: 'prompts are closed today' })
    expect(result.stderr).toContain('[notice:warning] turn blocked: prompts are closed today')
    expect(result.stderr).toContain('[turn] blocked: prompts are closed today')
  })

  it('errors loading a config name the file and the cause', async () => {
    const broken = project({ 'harness.config.mjs': 'export default {\n' })
    const brokenTs = project({ 'harness.config.ts': 'const x: number = \nexport default {}\n' })
    const unknownKey = project({ 'harness.config.mjs': 'export default { modle: "scripted:x.yaml" }\n' })
    const throwing = project({
      'harness.config.mjs': `export default { model: 'scripted:s.yaml', plugins: [{ name: 'bad', setup() { throw new Error('boom') } }] }\n`,
      's.yaml': '- text: x\n',
    })
    // Independent runs, side by side.
    const [syntax, tsSyntax, typo, missing, setup] = await Promise.all([
      harness(['run', 'hi'], { cwd: broken }),
      harness(['run', 'hi'], { cwd: brokenTs }),
      harness(['run', 'hi'], { cwd: unknownKey }),
      harness(['run', 'hi', '--config', 'nope.mjs'], { cwd: unknownKey }),
      harness(['run', 'hi'], { cwd: throwing }),
    ])
    expect(syntax.code).toBe(2)
    expect(syntax.stderr).toContain(`harness: failed to load config ${join(broken, 'harness.config.mjs')}: SyntaxError`)

    expect(tsSyntax.code).toBe(2)
    expect(tsSyntax.stderr).toContain(`harness: failed to load config ${join(brokenTs, 'harness.config.ts')}:`)

    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain(`harness: invalid config ${join(unknownKey, 'harness.config.mjs')}: unknown config key "modle"`)

    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`config file ${join(unknownKey, 'nope.mjs')} does not exist`)

    expect(setup.code).toBe(2)
    expect(setup.stderr).toContain('plugin "bad" failed to set up: boom')
  })
})
