import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HookCallback } from '@anthropic-ai/claude-agent-sdk'
import { definePlugin, type Plugin, userMessage } from '@harness-kernel/kernel'
import { lastUserMessage } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog, toolDirective } from '../support/driver-harness.js'
import { wireQuery } from '../support/wire.js'

// Observed against Claude Code 2.1.332 (Agent SDK 0.3.332).
let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

const policy = (setup: Plugin['setup']): Plugin => definePlugin({ name: 'policy', setup })
type ResultBlock = { type: string; content?: unknown; is_error?: boolean }
const toolResults = (request: Parameters<typeof lastUserMessage>[0] | undefined): ResultBlock[] => {
  const content = request ? lastUserMessage(request)?.content : undefined
  return Array.isArray(content) ? (content as ResultBlock[]).filter((block) => block.type === 'tool_result') : []
}

describe('drivers.md §4 item 10: a kernel denial and the handler-side post-execute', () => {
  it('a pre-execute deny is an error result with the reason, PostToolUseFailure fires; a post-execute rewrite is what the model sees', async () => {
    const failures: unknown[] = []
    const onFailure: HookCallback = async (input) => {
      failures.push(input)
      return {}
    }
    current = await driverHarness({
      driver: { queryOptions: { hooks: { PostToolUseFailure: [{ hooks: [onFailure] }] } } },
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
      `Two tools ${toolDirective('shell', { command: 'rm -rf /tmp/nothing-here' })} ${toolDirective('shell', { command: 'echo rewrite-me' })}`,
    )
    expect(result.status).toBe('completed')
    const [denied] = toolResults(current.server.requests[1])
    expect(denied).toMatchObject({ is_error: true })
    expect(JSON.stringify(denied?.content)).toContain('DENIED-BY-KERNEL-POLICY')
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatchObject({ tool_name: 'mcp__host__shell' })
    const [rewritten] = toolResults(current.server.requests[2])
    expect(JSON.stringify(rewritten?.content)).toContain('REWRITTEN-BY-POST-EXECUTE')
    expect(JSON.stringify(rewritten?.content)).not.toContain('rewrite-me\\n')
    const calls = readLog(session.transcriptPath).filter((event) => event.type === 'tool/call')
    expect(calls.map((event) => event.type === 'tool/call' && event.decision)).toEqual(['deny', 'allow'])
  })
})

describe('drivers.md §4 item 11: an allowed built-in (Bash) goes through the kernel’s tool points', () => {
  it('a pre-execute deny is "PreToolUse:Bash hook error: <reason>", a rewrite reaches execution, a permission deny reaches the model', async () => {
    current = await driverHarness({
      driver: { builtinTools: ['Bash'] },
      plugins: [
        policy((kernel) => {
          kernel.hooks.toolPreExecute.tap('policy', (decision, { call }) => {
            const command = String((call.input as { command?: string }).command ?? '')
            if (call.name !== 'Bash') return decision
            if (command.includes('deny-me')) return { kind: 'deny', reason: 'BASH-DENIED' }
            if (command.includes('rewrite-me'))
              return { kind: 'allow', input: { ...(call.input as object), command: 'echo REWRITTEN-BASH' } }
            return decision
          })
          kernel.hooks.toolPermissionRequest.tap('policy', (decision, { call }) =>
            call.name === 'Bash' ? { kind: 'deny', reason: 'PERMISSION-DENIED-BY-KERNEL' } : decision,
          )
        }),
      ],
    })
    const bash = (command: string) => `[[tool:Bash:${JSON.stringify({ command, description: 'run' })}]]`
    const session = await current.kernel.startSession()
    const result = await session.run(
      `Built-ins ${bash('echo deny-me')} ${bash('echo rewrite-me')} ${bash(`touch ${join(current.dir, 'made-by-bash')}`)}`,
    )
    expect(result.status).toBe('completed')
    const [denied] = toolResults(current.server.requests[1])
    expect(denied).toMatchObject({ is_error: true })
    expect(JSON.stringify(denied?.content)).toContain('PreToolUse:Bash hook error: BASH-DENIED')
    const [rewritten] = toolResults(current.server.requests[2])
    expect(JSON.stringify(rewritten?.content)).toContain('REWRITTEN-BASH')
    const [refused] = toolResults(current.server.requests[3])
    expect(refused).toMatchObject({ is_error: true })
    expect(JSON.stringify(refused?.content)).toContain('PERMISSION-DENIED-BY-KERNEL')
    expect(readdirSync(current.dir)).not.toContain('made-by-bash')
    // Claude Code's own tool results are in the kernel log too.
    const results = readLog(session.transcriptPath).filter((event) => event.type === 'tool/result')
    expect(results).toHaveLength(3)
  })
})

describe('drivers.md §4 item 12: agent/turn-stopping continues the turn', () => {
  it('a continue is exactly one more request in the same turn, and the next stop sees stopHookActive', async () => {
    const seen: boolean[] = []
    const wire = wireQuery()
    current = await driverHarness({
      driver: { query: wire.query },
      plugins: [
        policy((kernel) => {
          kernel.hooks.turnStopping.tap('policy', (decision, { stopHookActive }) => {
            seen.push(stopHookActive)
            return stopHookActive ? decision : { kind: 'continue', messages: [userMessage('KEEP GOING: one more check')] }
          })
        }),
      ],
    })
    const session = await current.kernel.startSession()
    const result = await session.run('Answer please')
    expect(result.status).toBe('completed')
    expect(seen).toEqual([false, true])
    expect(current.server.requests).toHaveLength(2)
    expect(wire.results()).toHaveLength(1)
    expect(JSON.stringify(current.server.requests[1]?.body.messages)).toContain('KEEP GOING: one more check')
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })
})

describe('drivers.md §4 item 13: resume in a second Claude Code process', () => {
  it('keeps Claude Code’s session id, appends to its transcript, and replays the history in the first request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-cc-resume-'))
    try {
      const first = await driverHarness({ dir })
      const session = await first.kernel.startSession()
      await session.run(`First ${toolDirective('shell', { command: 'echo first-run' })}`)
      const nativeId = readLog(session.transcriptPath).find((event) => event.type === 'driver/session')
      await first.dispose()
      expect(nativeId).toMatchObject({ driver: 'claude-code', nativeId: expect.stringMatching(/^[0-9a-f-]{36}$/) })
      const id = (nativeId as { nativeId: string }).nativeId

      current = await driverHarness({ dir })
      const resumed = await current.kernel.resumeSession(session.id)
      const result = await resumed.run(`Second ${toolDirective('shell', { command: 'echo second-run' })}`)
      expect(result.status).toBe('completed')
      const replay = JSON.stringify(current.server.requests[0]?.body.messages)
      expect(replay).toContain('first-run')
      expect(replay.indexOf('First')).toBeLessThan(replay.indexOf('Second'))
      const log = readLog(resumed.transcriptPath).filter((event) => event.type === 'driver/session')
      expect(log).toHaveLength(1)
      const transcripts = join(dir, '.harness', 'sessions', 'drivers', 'claude-code', session.id, 'config', 'projects')
      const [project] = readdirSync(transcripts)
      const transcript = readFileSync(join(transcripts, project as string, `${id}.jsonl`), 'utf8')
      expect(transcript).toContain('first-run')
      expect(transcript).toContain('second-run')
    } finally {
      await current?.dispose()
      current = undefined
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a halt from a tool point', () => {
  it('ends the Claude Code turn `halted` with the reason, after Claude Code took the step’s results', async () => {
    current = await driverHarness({
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
    const result = await session.run(`Halt ${toolDirective('shell', { command: 'echo stop-here' })}`)
    expect(result).toMatchObject({ status: 'halted', reason: 'a human must review this command' })
    // As on the native loop, the model is not asked again in that turn; the denial is in the log.
    expect(current.server.requests).toHaveLength(1)
    const log = readLog(session.transcriptPath)
    expect(log.some((event) => event.type === 'tool/result' && event.output === 'DEFERRED-FOR-REVIEW')).toBe(true)
    expect(log.filter((event) => event.type === 'tool/call').map((event) => event.type === 'tool/call' && event.decision)).toEqual([
      'deny-halt',
    ])
    expect(log.some((event) => event.type === 'notice' && event.text === 'turn halted: a human must review this command')).toBe(true)
    // The session goes on.
    expect((await session.run('And now?')).status).toBe('completed')
  })
})
