/**
 * docs/writing-a-bridge.md, held true: its plugin is `fixtures/my-hook-bridge.ts` (the page must show that file as it
 * is), and its hook script is taken from the page and run, in a real session with real hook processes.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { codexHooks } from '@harness-kernel/codex'
import { MemoryTrustStore } from '@harness-kernel/hook-protocol'
import { createKernel, type Plugin, type SessionEvent, textOf } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { tools } from '@harness-kernel/tools'
import { afterEach, describe, expect, it } from 'vitest'
import { type CommandHook, myHookBridge, trustHook } from './fixtures/my-hook-bridge.js'

const here = dirname(fileURLToPath(import.meta.url))
const guide = readFileSync(resolve(here, '../../docs/writing-a-bridge.md'), 'utf8')
const fixture = readFileSync(join(here, 'fixtures/my-hook-bridge.ts'), 'utf8')

/** The bodies of the guide's fenced blocks of `language`. */
function codeBlocks(language: string): string[] {
  return [...guide.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!)
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A temp project with the guide's hook script at hooks/check-tool.sh, and a kernel composed as the guide composes it. */
function setup(steps: ScriptStep[], bridgeOptions: { trusted: boolean }) {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'writing-a-bridge-')))
  cleanups.push(() => rmSync(cwd, { recursive: true, force: true }))
  mkdirSync(join(cwd, 'hooks'))
  const hookScript = join(cwd, 'hooks/check-tool.sh')
  const [script] = codeBlocks('sh')
  writeFileSync(hookScript, script!)
  chmodSync(hookScript, 0o755)
  mkdirSync(join(cwd, 'codex-home'))

  const hooks: CommandHook[] = [{ matcher: 'shell', command: './hooks/check-tool.sh' }]
  const trustStore = new MemoryTrustStore()
  if (bridgeOptions.trusted) for (const hook of hooks) trustHook(trustStore, hook)
  const model = scriptedModel({ script: steps })
  const plugins: Plugin[] = [
    model,
    tools(),
    codexHooks({ codexHome: join(cwd, 'codex-home'), trustStore: false }),
    myHookBridge({ hooks, trustStore }),
  ]
  const kernel = createKernel(plugins, { cwd })
  cleanups.push(() => kernel.dispose())
  return { cwd, kernel, model: model.model }
}

function events(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}

const THREE_CALLS: ScriptStep[] = [
  {
    tool_calls: [
      { name: 'shell', input: { command: 'rm -rf build' } },
      { name: 'shell', input: { command: 'git push --force' } },
      { name: 'shell', input: { command: 'echo hello' } },
    ],
  },
  { text: 'done' },
]

describe('docs/writing-a-bridge.md', () => {
  it('shows the plugin exactly as fixtures/my-hook-bridge.ts has it', () => {
    expect(codeBlocks('ts')).toContain(fixture)
    expect(codeBlocks('sh')).toHaveLength(1)
  })

  it('the bridge replaces codex-hooks and maps exit 2, a JSON deny and a JSON context onto the kernel’s decisions', async () => {
    const { kernel, model } = setup(THREE_CALLS, { trusted: true })
    await kernel.ready
    expect(kernel.plugins).toEqual(['scripted-model', 'tools', 'my-hook-bridge'])

    const session = await kernel.startSession()
    const turn = await session.run('clean up and push')
    expect(turn.status).toBe('completed')
    const log = events(session.transcriptPath)
    const results = log.flatMap((event) => (event.type === 'tool/result' ? [[event.output, event.isError]] : []))
    expect(results).toEqual([
      ['rm -rf is not allowed here; delete the files you mean by name', true],
      ['pushing is for humans', true],
      ['hello', false],
    ])
    const decisions = log.flatMap((event) => (event.type === 'tool/call' ? [event.decision] : []))
    expect(decisions).toEqual(['deny', 'deny', 'allow'])

    // The allowed call's context reaches the model in the next request, attributed to the bridge.
    const contexts = model.requests[1]!.messages.filter((message) => message.source.kind === 'plugin')
    expect(contexts.map((message) => [message.role, message.source, textOf(message)])).toEqual([
      ['developer', { kind: 'plugin', plugin: 'my-hook-bridge' }, 'check-tool.sh: looks fine'],
    ])
  })

  it('an untrusted hook does not run, and the session says so', async () => {
    const { kernel, model } = setup([{ tool_calls: [{ name: 'shell', input: { command: 'echo hello' } }] }, { text: 'done' }], {
      trusted: false,
    })
    const session = await kernel.startSession()
    await session.run('say hello')
    const log = events(session.transcriptPath)
    expect(log.flatMap((event) => (event.type === 'notice' ? [[event.level, event.text, event.source]] : []))).toEqual([
      ['warning', 'hook ./hooks/check-tool.sh is not trusted and will not run', 'my-hook-bridge'],
    ])
    expect(log.flatMap((event) => (event.type === 'tool/result' ? [event.output] : []))).toEqual(['hello'])
    expect(model.requests[1]!.messages.some((message) => message.source.kind === 'plugin')).toBe(false)
  })

  it('replaces naming a plugin that is not composed is an error naming the composed plugins', () => {
    expect(() => createKernel([scriptedModel({ script: [] }), tools(), myHookBridge({ hooks: [] })])).toThrow(
      'createKernel: plugin "my-hook-bridge" replaces "codex-hooks", which is not in the composition (its plugins: scripted-model, tools, my-hook-bridge)',
    )
    expect(guide).toContain(
      'createKernel: plugin "my-hook-bridge" replaces "codex-hooks", which is not in the composition (its plugins: scripted-model, tools, my-hook-bridge)',
    )
  })
})
