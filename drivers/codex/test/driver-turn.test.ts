import { newInput, toolsOf } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, callDirective, codexHarness, readLog } from './support/driver-harness.js'

let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('a turn inside the real Codex', () => {
  it('runs a kernel tool as a dynamic tool and records the turn in the kernel log', async () => {
    current = await codexHarness()
    const session = await current.kernel.startSession()
    const result = await session.run(`Run it ${callDirective('shell', { command: 'echo from-kernel-tool' })}`)
    expect(result.status, JSON.stringify(result)).toBe('completed')
    const [first, second] = current.server.requests
    const offered = toolsOf(first!)
    expect(offered).toEqual(expect.arrayContaining(['shell', 'read_file', 'write_file', 'edit_file']))
    expect(offered).not.toContain('exec_command')
    expect(newInput(second!)).toEqual([expect.stringMatching(/^output:.*from-kernel-tool/s)])
    const events = readLog(session.transcriptPath)
    expect(events.find((event) => event.type === 'driver/session')).toMatchObject({ driver: 'codex' })
    expect(events.find((event) => event.type === 'tool/call')).toMatchObject({ name: 'shell', decision: 'allow' })
    const messages = session.messages.map((message) => `${message.role}:${message.content.map((block) => block.type).join(',')}`)
    expect(messages).toEqual(['user:text', 'assistant:tool_call', 'tool:tool_result', 'assistant:text'])
    expect(result.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    console.log(
      events.filter((e) => e.type === 'notice'),
      offered,
    )
    await session.end()
  })
})
