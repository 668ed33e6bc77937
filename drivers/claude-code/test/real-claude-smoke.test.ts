import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSdkMcpServer, query, type SDKMessage, type SDKUserMessage, tool } from '@anthropic-ai/claude-agent-sdk'
import { type ContentBlock, type FakeAnthropic, lastUserMessage, startFakeAnthropic, toolsOf } from '@harness-kernel/testing'
import { afterEach, expect, test } from 'vitest'
import { z } from 'zod'
import { claudeExecutable, isolatedClaudeEnv } from './support/claude-env.js'

/** Not in the SDK's `SDKMessage` union (drivers.md §1.1). */
interface CommandLifecycleFrame {
  type: 'command_lifecycle'
  command_uuid: string
  state: string
}

/** A prompt stream that stays open until `close()`. */
function promptStream() {
  const queue: SDKUserMessage[] = []
  let wake: (() => void) | undefined
  let closed = false
  async function* messages(): AsyncGenerator<SDKUserMessage> {
    while (true) {
      while (queue.length > 0) yield queue.shift()!
      if (closed) return
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    }
  }
  const poke = () => {
    wake?.()
    wake = undefined
  }
  return {
    messages: messages(),
    push(message: SDKUserMessage) {
      queue.push(message)
      poke()
    },
    close() {
      closed = true
      poke()
    },
  }
}

let server: FakeAnthropic | undefined
let dir: string | undefined

afterEach(async () => {
  await server?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  server = undefined
  dir = undefined
})

test('the real Claude Code runs a host MCP tool offline against the fake Messages API', { timeout: 90_000 }, async () => {
  server = await startFakeAnthropic()
  dir = mkdtempSync(join(tmpdir(), 'driver-claude-code-smoke-'))
  const project = join(dir, 'project')
  mkdirSync(project)

  const calls: { args: { cmd: string }; toolUseId: unknown }[] = []
  const shell = tool('shell', 'Run a shell command', { cmd: z.string() }, async (args, extra) => {
    const meta = (extra as { _meta?: Record<string, unknown> } | undefined)?._meta
    calls.push({ args, toolUseId: meta?.['claudecode/toolUseId'] })
    return { content: [{ type: 'text', text: `ran: ${args.cmd}` }] }
  })

  const input = promptStream()
  const promptUuid = randomUUID()
  input.push({
    type: 'user',
    message: { role: 'user', content: 'Run it [[tool:mcp__host__shell:{"cmd":"echo hi"}]]' },
    parent_tool_use_id: null,
    uuid: promptUuid,
  })

  const q = query({
    prompt: input.messages,
    options: {
      cwd: project,
      env: isolatedClaudeEnv({ baseUrl: server.url, dir }),
      pathToClaudeCodeExecutable: claudeExecutable(),
      tools: [],
      mcpServers: { host: createSdkMcpServer({ name: 'host', version: '1.0.0', tools: [shell] }) },
      allowedTools: ['mcp__host__shell'],
      settingSources: [],
      permissionMode: 'default',
    },
  })

  const seen: (SDKMessage | CommandLifecycleFrame)[] = []
  let finished = false
  try {
    for await (const message of q) {
      seen.push(message)
      // One turn is all this test runs: end the input; the CLI then exits and the iterator finishes.
      if (message.type === 'result') input.close()
    }
    finished = true
  } finally {
    input.close()
    if (!finished) q.close()
  }
  expect(finished).toBe(true)

  const requests = server.requests
  expect(requests.length).toBeGreaterThanOrEqual(2)
  const [first, second] = requests
  expect(toolsOf(first!)).toEqual(['DeferredToolPlaceholder', 'mcp__host__shell'])

  expect(first!.toolCalls).toEqual([{ id: expect.any(String), name: 'mcp__host__shell', input: { cmd: 'echo hi' } }])
  const toolUseId = first!.toolCalls[0]!.id
  expect(toolUseId).toMatch(/^toolu_[a-z0-9]+_\d+$/)
  expect(calls).toEqual([{ args: { cmd: 'echo hi' }, toolUseId }])

  const frames = seen.filter((m): m is CommandLifecycleFrame => m.type === ('command_lifecycle' as string))
  expect(frames.some((f) => f.command_uuid === promptUuid && f.state === 'queued')).toBe(true)

  const results = seen.filter((m) => m.type === 'result')
  expect(results).toHaveLength(1)
  expect(results[0]).toMatchObject({ subtype: 'success', is_error: false })

  const last = lastUserMessage(second!)
  const blocks: ContentBlock[] = Array.isArray(last?.content) ? last.content : []
  const toolResult = blocks.find((b) => b.type === 'tool_result')
  expect(toolResult?.tool_use_id).toBe(toolUseId)
  const resultText =
    typeof toolResult?.content === 'string' ? toolResult.content : (toolResult?.content ?? []).map((b) => b.text ?? '').join('')
  expect(resultText).toBe('ran: echo hi')
})
