import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { definePlugin, defineTool, type Plugin } from '@harness-kernel/kernel'
import { newInput, type RecordedRequest, toolsOf, userTexts } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { codexDriver, codexExecutable } from '../../src/index.js'
import { type CodexHarness, callDirective, codexHarness, readLog } from '../support/driver-harness.js'
import { wireLog } from '../support/wire.js'

// Observed against Codex 0.169.0 (`codex app-server`), the native binary of @openai/codex 0.169.0.
let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const policy = (setup: Plugin['setup']): Plugin => definePlugin({ name: 'policy', setup })
const DROPPED = ['$schema', 'minLength', 'exclusiveMinimum', 'maximum']
function withoutKeys(value: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutKeys(item, keys))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !keys.includes(key))
      .map(([key, item]) => [key, withoutKeys(item, keys)]),
  )
}
const request = (index: number) => current?.server.requests[index] as RecordedRequest

describe('drivers.md §4 item 15: kernel tools are Codex dynamic tools', () => {
  it('the model sees each as a function tool with the kernel schema; a call is item/tool/call; the answer is the function_call_output', async () => {
    const wire = wireLog()
    current = await codexHarness({ driver: { onProtocolMessage: wire.onProtocolMessage } })
    const session = await current.kernel.startSession()
    const result = await session.run(`Run ${callDirective('shell', { command: 'echo dynamic-ok' })}`)
    expect(result.status).toBe('completed')
    expect(wire.sent('initialize')[0]?.params).toMatchObject({ capabilities: { experimentalApi: true } })
    const declared = (wire.sent('thread/start')[0]?.params?.dynamicTools as { name: string; inputSchema: unknown }[]) ?? []
    const shell = declared.find((tool) => tool.name === 'shell')
    const offered = request(0).body.tools?.find((tool: { name?: string }) => tool.name === 'shell')
    // Codex 0.169.0 passes the schema on in the subset it models: `$schema` and numeric/length bounds are dropped
    // (observed in every run); the kernel still validates a call's input against the full schema.
    expect(offered).toMatchObject({ type: 'function', name: 'shell', strict: false, parameters: withoutKeys(shell?.inputSchema, DROPPED) })
    const [call] = wire.received('item/tool/call')
    expect(call?.params).toMatchObject({ tool: 'shell', arguments: { command: 'echo dynamic-ok' } })
    const answer = wire.entries.find((entry) => entry.direction === 'out' && entry.message.id === call?.id)?.message
    expect(answer?.result).toMatchObject({
      success: true,
      contentItems: [{ type: 'inputText', text: expect.stringContaining('dynamic-ok') }],
    })
    expect(newInput(request(1))).toEqual([expect.stringMatching(/^output:.*dynamic-ok/s)])
  })

  it('without experimentalApi Codex refuses dynamic tools, so the driver always asks for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-codex-raw-'))
    mkdirSync(join(dir, 'home'))
    const child = spawn(codexExecutable(), ['app-server'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'home') },
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const answer = new Promise<Record<string, unknown>>((resolve) =>
        lines.on('line', (line) => {
          const message = JSON.parse(line) as Record<string, unknown>
          if (message.id === 2) resolve(message)
        }),
      )
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`)
      send({
        id: 1,
        method: 'initialize',
        params: { clientInfo: { name: 'test', title: null, version: '0' }, capabilities: { experimentalApi: false } },
      })
      send({ method: 'initialized' })
      const tool = { type: 'function', name: 'x', description: 'd', inputSchema: { type: 'object', properties: {} } }
      send({ id: 2, method: 'thread/start', params: { cwd: dir, dynamicTools: [tool] } })
      expect(await answer).toMatchObject({ error: { message: 'thread/start.dynamicTools requires experimentalApi capability' } })
    } finally {
      child.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a tool Codex cannot host fails the turn with Codex’s reason, before any model call', async () => {
    const dotted = policy((kernel) => {
      kernel.registerTool(
        defineTool({
          name: 'files.read',
          description: 'A dotted name.',
          inputSchema: z.object({}),
          execute: async () => ({ output: 'x', isError: false }),
        }),
      )
    })
    current = await codexHarness({ plugins: [dotted] })
    const session = await current.kernel.startSession()
    const result = await session.run('hello')
    expect(result.status).toBe('failed')
    expect(result.error).toContain('Codex refused to start the thread')
    expect(result.error).toContain('dynamic tool name must match ^[a-zA-Z0-9_-]+$')
    expect(current.server.requests).toHaveLength(0)
  })
})

describe('drivers.md §4 item 16: Codex’s shell and multi-agent tools are off', () => {
  it('no exec_command, write_stdin or multi_agent_v1 in the request; the notice names exactly the built-ins that remain', async () => {
    current = await codexHarness()
    const session = await current.kernel.startSession()
    await session.run('hello')
    const offered = toolsOf(request(0))
    for (const name of ['exec_command', 'write_stdin', 'multi_agent_v1']) expect(offered).not.toContain(name)
    const kernelTools = ['shell', 'read_file', 'write_file', 'edit_file']
    const builtins = offered.filter((name) => !kernelTools.includes(name))
    const notice = readLog(session.transcriptPath).find(
      (event) => event.type === 'notice' && event.text.startsWith('Codex keeps built-in tools'),
    )
    const named = (notice?.type === 'notice' ? notice.text : '')
      .replace(/^.*intercept: /, '')
      .replace(/\.$/, '')
      .split(', ')
    expect(named.sort()).toEqual(builtins.sort())
  })
})

describe('drivers.md §4 item 21: built-in commands that ask to escalate go to tools/permission-request', () => {
  it('on-request + read-only: escalations are asked (accept runs, decline is Rejected); a sandboxed command is not asked', async () => {
    const asked: string[] = []
    current = await codexHarness({
      driver: { builtinTools: { shell: true }, approvalPolicy: 'on-request', sandbox: 'read-only' },
      plugins: [
        policy((kernel) => {
          kernel.hooks.toolPermissionRequest.tap('policy', (_decision, { call }) => {
            const command = String((call.input as { command?: string }).command)
            asked.push(`${call.name}: ${command}`)
            return command.includes('decline-me') ? { kind: 'deny', reason: 'not this one' } : { kind: 'allow' }
          })
        }),
      ],
    })
    const session = await current.kernel.startSession()
    const result = await session.run(
      'Three commands [[shell:!echo approve-me > a.txt]] [[shell:!echo decline-me > f.txt]] [[shell:echo plain-in-sandbox]]',
    )
    expect(result.status).toBe('completed')
    expect(asked).toHaveLength(2)
    expect(asked[0]).toMatch(/^exec_command: .*approve-me/)
    expect(asked[1]).toMatch(/^exec_command: .*decline-me/)
    expect(readdirSync(current.dir)).toContain('a.txt')
    expect(readdirSync(current.dir)).not.toContain('f.txt')
    expect(newInput(request(2)).join('\n')).toContain('Rejected(\\"rejected by user\\")')
    expect(newInput(request(3)).join('\n')).toContain('plain-in-sandbox')
    // The kernel log holds all three built-in calls and their results; only two were decided by the kernel.
    const log = readLog(session.transcriptPath)
    expect(log.filter((event) => event.type === 'tool/result')).toHaveLength(3)
    expect(log.filter((event) => event.type === 'hook/run' || event.type === 'tool/call')).toHaveLength(0)
  })
})

describe('drivers.md §4 item 22: never approval_policy "untrusted"', () => {
  it('the driver refuses it before anything starts (Codex would exit with rc 1)', () => {
    expect(() => codexDriver({ approvalPolicy: 'untrusted' as never })).toThrow(/"untrusted" is not supported/)
  })

  it('the real Codex 0.169.0 exits at start with it, naming the setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-codex-untrusted-'))
    try {
      const { writeFileSync } = await import('node:fs')
      writeFileSync(join(dir, 'config.toml'), 'approval_policy = "untrusted"\n')
      const child = spawn(codexExecutable(), ['app-server'], {
        env: { PATH: process.env.PATH, HOME: dir, CODEX_HOME: dir },
        stdio: ['pipe', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect(code).toBe(1)
      expect(stderr).toContain('approval_policy = "untrusted" is no longer supported')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('kernel tool points inside Codex', () => {
  it('a pre-execute deny answers success:false with the reason; a post-execute rewrite is what the model sees', async () => {
    const wire = wireLog()
    current = await codexHarness({
      driver: { onProtocolMessage: wire.onProtocolMessage },
      plugins: [
        policy((kernel) => {
          kernel.hooks.toolPreExecute.tap('policy', (decision, { call }) =>
            JSON.stringify(call.input).includes('rm -rf') ? { kind: 'deny', reason: 'DENIED-BY-KERNEL-POLICY' } : decision,
          )
          kernel.hooks.toolPostExecute.tap('policy', (decision, { call }) =>
            JSON.stringify(call.input).includes('rewrite-me') ? { kind: 'accept', output: 'REWRITTEN-BY-POST-EXECUTE' } : decision,
          )
        }),
      ],
    })
    const session = await current.kernel.startSession()
    const result = await session.run(
      `Two ${callDirective('shell', { command: 'rm -rf /tmp/nothing-here' })} ${callDirective('shell', { command: 'echo rewrite-me' })}`,
    )
    expect(result.status).toBe('completed')
    const answers = wire
      .received('item/tool/call')
      .map((call) => wire.entries.find((e) => e.direction === 'out' && e.message.id === call.id)?.message.result)
    expect(answers[0]).toMatchObject({ success: false, contentItems: [{ text: 'DENIED-BY-KERNEL-POLICY' }] })
    expect(wire.completed('dynamicToolCall')[0]).toMatchObject({ status: 'failed', success: false })
    expect(newInput(request(1))).toEqual(['output:DENIED-BY-KERNEL-POLICY'])
    expect(newInput(request(2))).toEqual(['output:REWRITTEN-BY-POST-EXECUTE'])
    const calls = readLog(session.transcriptPath).filter((event) => event.type === 'tool/call')
    expect(calls.map((event) => event.type === 'tool/call' && event.decision)).toEqual(['deny', 'allow'])
  })

  it('a halt from a tool point ends the turn `halted`: Codex is interrupted while the call is parked, no model call follows', async () => {
    current = await codexHarness({
      plugins: [
        policy((kernel) => {
          kernel.hooks.toolPreExecute.tap('policy', (decision, { call }) =>
            JSON.stringify(call.input).includes('stop-here')
              ? { kind: 'deny', reason: 'DEFERRED-FOR-REVIEW', halt: { reason: 'a human must review this command' } }
              : decision,
          )
        }),
      ],
    })
    const session = await current.kernel.startSession()
    const result = await session.run(`Halt ${callDirective('shell', { command: 'echo stop-here' })}`)
    expect(result).toMatchObject({ status: 'halted', reason: 'a human must review this command' })
    expect(current.server.requests).toHaveLength(1)
    const log = readLog(session.transcriptPath)
    expect(log.some((event) => event.type === 'tool/result' && event.output === 'DEFERRED-FOR-REVIEW')).toBe(true)
    expect(log.some((event) => event.type === 'notice' && event.text === 'turn halted: a human must review this command')).toBe(true)
    expect((await session.run('And now?')).status).toBe('completed')
  })
})

describe('resume: a second Codex process resumes the thread', () => {
  it('keeps the thread id, replays its history to the model, and the kernel tools still answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-codex-resume-'))
    try {
      const first = await codexHarness({ dir })
      const session = await first.kernel.startSession()
      await session.run(`First ${callDirective('shell', { command: 'echo first-run' })}`)
      const native = readLog(session.transcriptPath).find((event) => event.type === 'driver/session')
      await first.dispose()
      expect(native).toMatchObject({ driver: 'codex', nativeId: expect.stringMatching(/^[0-9a-f-]{36}$/) })

      const wire = wireLog()
      current = await codexHarness({ dir, driver: { onProtocolMessage: wire.onProtocolMessage } })
      const resumed = await current.kernel.resumeSession(session.id)
      const result = await resumed.run(`Second ${callDirective('shell', { command: 'echo second-run' })}`)
      expect(result.status).toBe('completed')
      expect(wire.sent('thread/resume')[0]?.params).toMatchObject({ threadId: (native as { nativeId: string }).nativeId })
      expect(wire.sent('thread/start')).toHaveLength(0)
      const texts = userTexts(request(0))
      expect(texts.findIndex((text) => text.startsWith('First'))).toBeLessThan(texts.findIndex((text) => text.startsWith('Second')))
      expect(JSON.stringify(request(0).body.input)).toContain('first-run')
      expect(newInput(request(1))).toEqual([expect.stringMatching(/^output:.*second-run/s)])
      expect(readLog(resumed.transcriptPath).filter((event) => event.type === 'driver/session')).toHaveLength(1)
    } finally {
      await current?.dispose()
      current = undefined
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
