import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { codexHooks, loadCodexHooks, trustCodexHooks } from '@harness-kernel/codex'
import { JsonFileTrustStore } from '@harness-kernel/hook-protocol'
import { createKernel, definePlugin, type Plugin, type SessionEvent, useDriver } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { type FakeAnthropic, startFakeAnthropic } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claudeCodeDriver } from '../src/index.js'
import { isolatedClaudeEnv } from './support/claude-env.js'
import { readLog, toolDirective } from './support/driver-harness.js'

// The same composition (a native policy, Codex hooks, Claude Code hooks, the tools) on both drivers, with no
// change but the driver. Observed against Claude Code 2.1.332 (Agent SDK 0.3.332).
const COMMANDS = ['echo forbidden-by-codex-hook', 'rm -rf /tmp/not-here-at-all', 'echo allowed-command']

let dir: string
let server: FakeAnthropic
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hk-cc-composition-'))
  server = await startFakeAnthropic()
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

function script(name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

function composition(workspace: string): Plugin[] {
  const codexHome = join(workspace, 'codex-home')
  mkdirSync(codexHome, { recursive: true })
  const deny = script('codex-pre.sh', `grep -q forbidden-by-codex-hook && { echo 'CODEX-HOOK-DENIED' >&2; exit 2; }; exit 0`)
  const context = script(
    'claude-post.sh',
    `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CLAUDE-HOOK-CONTEXT"}}'`,
  )
  writeFileSync(
    join(codexHome, 'hooks.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] } }),
  )
  const settings = join(workspace, 'claude-settings.json')
  writeFileSync(settings, JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: context }] }] } }))
  const trustStore = new JsonFileTrustStore(join(workspace, 'trust.json'), 'codex')
  const { handlers } = loadCodexHooks({ cwd: workspace, codexHome, trustStore })
  trustCodexHooks({ handlers, keys: 'all', target: 'harness', trustStore, codexHome })
  const policy = definePlugin({
    name: 'no-rm-rf',
    setup(kernel) {
      kernel.hooks.toolPreExecute.tap('no-rm-rf', (decision, { call }) =>
        JSON.stringify(call.input).includes('rm -rf') ? { kind: 'deny', reason: 'NATIVE-POLICY-DENIED' } : decision,
      )
    },
  })
  return [
    tools(),
    codexHooks({ codexHome, trustStore }),
    claudeCodeHooks({ settings: [settings], settingSources: [], managedSettingsPath: false }),
    policy,
  ]
}

async function runOn(driver: 'native' | 'claude-code'): Promise<SessionEvent[]> {
  const workspace = join(dir, driver)
  mkdirSync(workspace, { recursive: true })
  const driverPlugin =
    driver === 'native'
      ? scriptedModel({
          script: [...COMMANDS.map((command) => ({ tool_calls: [{ name: 'shell', input: { command } }] })), { text: 'done' }],
        })
      : useDriver(claudeCodeDriver({ env: isolatedClaudeEnv({ baseUrl: server.url, dir: workspace }) }))
  const kernel = createKernel([driverPlugin, ...composition(workspace)], { cwd: workspace })
  const session = await kernel.startSession()
  const result = await session.run(`Three commands ${COMMANDS.map((command) => toolDirective('shell', { command })).join(' ')}`)
  expect(result.status).toBe('completed')
  await kernel.dispose()
  return readLog(session.transcriptPath)
}

const outcome = (events: SessionEvent[]) => ({
  decisions: events.flatMap((event) => (event.type === 'tool/call' ? [event.decision] : [])),
  results: events.flatMap((event) => (event.type === 'tool/result' ? [event.output.trim()] : [])),
  hookRuns: events.flatMap((event) => (event.type === 'hook/run' ? [`${event.dialect}:${event.event}:${event.status}`] : [])),
  contexts: events.flatMap((event) =>
    event.type === 'message' && event.message.role === 'developer'
      ? event.message.content.map((block) => (block.type === 'text' ? block.text : ''))
      : [],
  ),
  gaps: events.filter((event) => event.type === 'notice' && event.level === 'warning' && event.text.includes('never fires')),
})

describe('one composition, two drivers', () => {
  it('a native policy, Codex hooks and Claude Code hooks decide alike on the native loop and inside Claude Code', async () => {
    const native = outcome(await runOn('native'))
    const claude = outcome(await runOn('claude-code'))
    expect(native.decisions).toEqual(['deny', 'deny', 'allow'])
    // The dialects' request-rendering taps are `rendersOnly`: Claude Code renders on its own, so no gap is reported.
    expect(claude).toEqual(native)
    expect(native.results[0]).toContain('CODEX-HOOK-DENIED')
    expect(native.results[1]).toBe('NATIVE-POLICY-DENIED')
    expect(native.results[2]).toBe('allowed-command')
    expect(native.hookRuns).toEqual(
      expect.arrayContaining([expect.stringMatching(/^codex:PreToolUse:/), expect.stringMatching(/^claude-code:PostToolUse:/)]),
    )
    expect(native.contexts.join('\n')).toContain('CLAUDE-HOOK-CONTEXT')
    // The Claude Code hook's context reached Claude Code's model with the tool result.
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('CLAUDE-HOOK-CONTEXT')
  })
})
