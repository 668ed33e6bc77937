import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { SpawnOptions } from '@anthropic-ai/claude-agent-sdk'
import { lastUserMessage, toolsOf } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog, toolDirective } from './support/driver-harness.js'

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('a turn inside the real Claude Code', () => {
  it('runs a kernel tool through the MCP host and records the turn in the kernel log', async () => {
    current = await driverHarness()
    const session = await current.kernel.startSession()
    const result = await session.run(`Run it ${toolDirective('shell', { command: 'echo from-kernel-tool' })}`)
    expect(result.status).toBe('completed')
    const [first, second] = current.server.requests
    // Claude Code 2.1.332 orders the list its own way (observed: edit_file, read_file, shell, the placeholder, write_file).
    expect(toolsOf(first!).sort()).toEqual(
      ['DeferredToolPlaceholder', 'mcp__host__edit_file', 'mcp__host__read_file', 'mcp__host__shell', 'mcp__host__write_file'].sort(),
    )
    const last = lastUserMessage(second!)
    expect(JSON.stringify(last)).toContain('from-kernel-tool')
    const events = readLog(session.transcriptPath)
    const types = events.map((event) => event.type)
    expect(types).toContain('driver/session')
    const call = events.find((event) => event.type === 'tool/call')
    expect(call).toMatchObject({ name: 'shell', decision: 'allow' })
    const messages = session.messages.map((message) => `${message.role}:${message.content.map((block) => block.type).join(',')}`)
    expect(messages).toEqual(['user:text', 'assistant:tool_call', 'tool:tool_result', 'assistant:text'])
    expect(result.lastAssistantMessage).toMatch(/^FINAL reply to request #\d+$/)
    await session.end()
  })

  it('calls no SDK hook back for a kernel tool: its points run once, inside the MCP handler', async () => {
    // Every line Claude Code writes to the SDK, as the SDK reads it.
    const lines: string[] = []
    const spawnClaudeCodeProcess = (options: SpawnOptions) => {
      const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
      createInterface({ input: child.stdout }).on('line', (line) => lines.push(line))
      return child
    }
    current = await driverHarness({ driver: { queryOptions: { spawnClaudeCodeProcess } } })
    const session = await current.kernel.startSession()
    const result = await session.run(`Run it ${toolDirective('shell', { command: 'echo once' })}`)
    expect(result.status).toBe('completed')
    const callbacks = lines
      .map((line) => JSON.parse(line) as { type: string; request?: { subtype?: string; message?: { method?: string } } })
      .filter((frame) => frame.type === 'control_request')
      .map((frame) => frame.request?.message?.method ?? frame.request?.subtype)
    // The MCP call, and the Stop hook once at the end of the turn; no PreToolUse/PostToolUse round trip.
    expect(callbacks.filter((what) => what === 'tools/call')).toHaveLength(1)
    expect(callbacks.filter((what) => what === 'hook_callback')).toHaveLength(1)
    await session.end()
  })
})
