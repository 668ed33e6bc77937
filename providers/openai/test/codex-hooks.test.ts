import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { codexHooks } from '@harness-kernel/codex'
import { type FakeOpenAI, sse, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chatCalls, chatText } from './chat-wire.js'
import { kernelHarnessPerTest } from './kernel-harness.js'
import { call, responsesStream, text } from './responses-wire.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(() => server.close())

const setup = kernelHarnessPerTest()

/** Real Codex hooks (hooks.json in a temp CODEX_HOME): PreToolUse and PostToolUse each add a context for the model. */
function withCodexHooks(dir: string) {
  const codexHome = join(dir, 'codex-home')
  mkdirSync(codexHome, { recursive: true })
  const script = join(dir, 'context-hook.sh')
  writeFileSync(
    script,
    '#!/bin/bash\ncat > /dev/null\nprintf \'{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"%s"}}\' "$1" "$2"\n',
  )
  chmodSync(script, 0o755)
  const hook = (event: string, context: string) => ({ hooks: [{ type: 'command', command: `${script} ${event} ${context}` }] })
  const hooks = { PreToolUse: [hook('PreToolUse', 'pre-context')], PostToolUse: [hook('PostToolUse', 'post-context')] }
  writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks }))
  return [codexHooks({ codexHome, trust: 'all', trustStore: false, tmpDir: join(dir, 'tmp') })]
}

describe('a full kernel turn with Codex hooks through the provider', () => {
  it('Responses: the hook contexts sit between the function_call and its output, as Codex sends them', async () => {
    const h = setup({ model: { baseURL: server.baseURL }, plugins: withCodexHooks })
    server.reply(sse(responsesStream([call('call_1', 'shell', { command: 'echo out' })])), sse(responsesStream([text('done')])))
    const session = await h.kernel.startSession()
    const result = await session.run('run echo')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done' })
    expect(server.requests).toHaveLength(2)
    const input = server.requests[1]!.body.input
    expect(input.slice(0, 4)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run echo' }] },
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":"echo out"}' },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'pre-context' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'post-context' }] },
    ])
    expect(input[4]).toMatchObject({ type: 'function_call_output', call_id: 'call_1' })
    expect(input[4].output).toContain('out')
    expect(input).toHaveLength(5)
  })

  it('Chat: the same contexts follow the tool message, which must come right after the call', async () => {
    const h = setup({ model: { baseURL: server.baseURL, api: 'chat' }, plugins: withCodexHooks })
    server.reply(sse(chatCalls([{ id: 'call_1', name: 'shell', chunks: ['{"command":"echo out"}'] }])), sse(chatText(['done'])))
    const session = await h.kernel.startSession()
    const result = await session.run('run echo')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done' })
    const messages = server.requests[1]!.body.messages
    expect(messages.map((message: { role: string; content: string | null }) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'system',
      'system',
    ])
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' })
    expect(messages.slice(4)).toEqual([
      { role: 'system', content: 'pre-context' },
      { role: 'system', content: 'post-context' },
    ])
  })
})
