import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks } from '@harness-kernel/claude-code'
import { codexHooks, loadCodexHooks, trustCodexHooks } from '@harness-kernel/codex'
import { claudeCodeDriver } from '@harness-kernel/driver-claude-code'
import { JsonFileTrustStore } from '@harness-kernel/hook-protocol'
import { createKernel, definePlugin, type Plugin, type SessionEvent, useDriver } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { type FakeAnthropic, type FakeOpenAI, newInput, startFakeAnthropic, startFakeOpenAI } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isolatedClaudeEnv } from '../../claude-code/test/support/claude-env.js'
import { toolDirective } from '../../claude-code/test/support/driver-harness.js'
import { codexDriver } from '../src/index.js'
import { callDirective, codexOptions, readLog } from './support/driver-harness.js'

// The same composition (a native policy, Codex hooks, Claude Code hooks, the tools) on all three drivers, with no
// change but the driver. Observed against Codex 0.169.0 and Claude Code 2.1.332 (Agent SDK 0.3.332).
const COMMANDS = ['echo forbidden-by-codex-hook', 'rm -rf /tmp/not-here-at-all', 'echo allowed-command']

let dir: string
let server: FakeAnthropic
let responses: FakeOpenAI
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hk-three-drivers-'))
  server = await startFakeAnthropic()
  responses = await startFakeOpenAI()
})
afterAll(async () => {
  await server.close()
  await responses.close()
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

function driverPlugin(driver: 'native' | 'claude-code' | 'codex', workspace: string): Plugin {
  if (driver === 'native') {
    return scriptedModel({
      script: [...COMMANDS.map((command) => ({ tool_calls: [{ name: 'shell', input: { command } }] })), { text: 'done' }],
    })
  }
  if (driver === 'claude-code') return useDriver(claudeCodeDriver({ env: isolatedClaudeEnv({ baseUrl: server.url, dir: workspace }) }))
  return useDriver(codexDriver(codexOptions(responses, workspace)))
}

async function runOn(driver: 'native' | 'claude-code' | 'codex'): Promise<SessionEvent[]> {
  const workspace = join(dir, driver)
  mkdirSync(workspace, { recursive: true })
  const kernel = createKernel([driverPlugin(driver, workspace), ...composition(workspace)], { cwd: workspace })
  const session = await kernel.startSession()
  const prompt =
    driver === 'codex'
      ? COMMANDS.map((command) => callDirective('shell', { command })).join(' ')
      : COMMANDS.map((command) => toolDirective('shell', { command })).join(' ')
  const result = await session.run(`Three commands ${prompt}`)
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

describe('one composition, three drivers', () => {
  it('a native policy, Codex hooks and Claude Code hooks decide alike on the native loop, inside Claude Code and inside Codex', async () => {
    const native = outcome(await runOn('native'))
    const claude = outcome(await runOn('claude-code'))
    const codex = outcome(await runOn('codex'))
    expect(native.decisions).toEqual(['deny', 'deny', 'allow'])
    // The dialects' request-rendering taps are `rendersOnly`: the programs render on their own, so no gap is reported.
    expect(claude).toEqual(native)
    // Codex has no Stop callback over its protocol: both dialects' Stop taps are named, once each, and nothing else differs.
    expect({ ...codex, gaps: [] }).toEqual(native)
    expect(codex.gaps.map((notice) => (notice.type === 'notice' ? notice.text : ''))).toEqual([
      'plugin "codex-hooks" taps agent/turn-stopping, which the codex driver never fires: that tap will not run',
      'plugin "claude-code-hooks" taps agent/turn-stopping, which the codex driver never fires: that tap will not run',
    ])
    expect(native.results[0]).toContain('CODEX-HOOK-DENIED')
    expect(native.results[1]).toBe('NATIVE-POLICY-DENIED')
    expect(native.results[2]).toBe('allowed-command')
    expect(native.hookRuns).toEqual(
      expect.arrayContaining([expect.stringMatching(/^codex:PreToolUse:/), expect.stringMatching(/^claude-code:PostToolUse:/)]),
    )
    expect(native.contexts.join('\n')).toContain('CLAUDE-HOOK-CONTEXT')
    // The Claude Code hook's context reached each program's model with the tool result.
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('CLAUDE-HOOK-CONTEXT')
    expect(newInput(responses.requests.at(-1) as (typeof responses.requests)[number]).join('\n')).toContain('CLAUDE-HOOK-CONTEXT')
  })
})
