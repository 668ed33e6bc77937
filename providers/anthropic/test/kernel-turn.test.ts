import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { claudeCodeHooks, STOP_PREAMBLE } from '@harness-kernel/claude-code'
import { contextMessage, createKernel, definePlugin, type Kernel, type KernelOptions, type Plugin } from '@harness-kernel/kernel'
import { apiError, type FakeAnthropic, sse, startFakeAnthropic } from '@harness-kernel/testing'
import { tools } from '@harness-kernel/tools'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { anthropicModel } from '../src/index.js'
import { message, text, toolUse } from './sse.js'

let server: FakeAnthropic
let kernel: Kernel | undefined
beforeEach(async () => {
  server = await startFakeAnthropic({ strict: true })
})
afterEach(async () => {
  await kernel?.dispose()
  kernel = undefined
  await server.close()
})

interface Setup {
  dir: string
  kernel: Kernel
  notices: string[]
}

/** A real kernel over the fake API: the Anthropic provider, the built-in tools and whatever else the test adds. */
function setup(plugins: Plugin[] = [], options: KernelOptions = {}): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'hk-anthropic-'))
  const notices: string[] = []
  const recorder = definePlugin({
    name: 'notice-recorder',
    setup(api) {
      api.hooks.notice.tap('notice-recorder', ({ text }) => {
        notices.push(text)
      })
    },
  })
  kernel = createKernel(
    [anthropicModel({ model: 'claude-test-1', baseURL: server.baseURL, apiKey: 'test-key' }), tools(), recorder, ...plugins],
    {
      cwd: dir,
      modelRetry: { initialDelayMs: 1 },
      ...options,
    },
  )
  return { dir, kernel, notices }
}

describe('a kernel turn through the Anthropic provider', () => {
  it('runs model → tool → model with one request per step, mapping the transcript exactly', async () => {
    server.reply(
      sse(message([text('Let me look.'), toolUse('toolu_01', 'shell', { command: 'echo hi' })])),
      sse(message([text('It says hi.')])),
    )
    const { kernel } = setup([], { system: 'You are a coding agent.' })
    const session = await kernel.startSession()
    const result = await session.run('what does echo hi print?')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'It says hi.' })
    expect(server.requests).toHaveLength(2)
    const [first, second] = server.requests.map((request) => request.body)
    expect(first.system).toBe('You are a coding agent.')
    expect(first.tools.map((tool: { name: string }) => tool.name)).toEqual(['shell', 'read_file', 'write_file', 'edit_file'])
    expect(first.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what does echo hi print?' }] }])
    expect(second.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'what does echo hi print?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_01', name: 'shell', input: { command: 'echo hi' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'hi' }] },
    ])
  })

  it('runs parallel tool calls and returns both results in one user message', async () => {
    server.reply(
      sse(message([toolUse('toolu_a', 'shell', { command: 'echo one' }), toolUse('toolu_b', 'shell', { command: 'echo two' })])),
      sse(message([text('one and two')])),
    )
    const { kernel } = setup()
    const session = await kernel.startSession()
    expect(await session.run('run both')).toMatchObject({ status: 'completed' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]!.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'one' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'two' },
      ],
    })
  })

  it('sends injected plugin context as a <system-reminder> before the prompt', async () => {
    server.reply(sse(message([text('ok')])))
    const { kernel } = setup()
    const session = await kernel.startSession()
    session.inject(contextMessage('ide', 'open file: src/a.ts'))
    await session.run('fix it')
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>\nopen file: src/a.ts\n</system-reminder>' },
          { type: 'text', text: 'fix it' },
        ],
      },
    ])
  })

  it('429 with retry-after: 1: the kernel retries the same step once, waiting for it; two requests, turn completed', async () => {
    server.reply(apiError(429, 'Rate limited', { type: 'rate_limit_error', retryAfter: 1 }), sse(message([text('finally')])))
    const { kernel, notices } = setup()
    const session = await kernel.startSession()
    const result = await session.run('hi')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'finally' })
    expect(server.requests).toHaveLength(2)
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body)
    expect(notices).toContain(
      'model anthropic:claude-test-1 failed (Anthropic API error 429 (rate_limit_error): Rate limited); retrying in 1000 ms (attempt 2 of 4)',
    )
  })

  it('a stream cut mid-way is retried by the kernel: two requests, the second answer recorded', async () => {
    server.reply(sse(message([text('a first answer that gets cut')]), { cutAfter: 4 }), sse(message([text('the whole answer')])))
    const { kernel } = setup()
    const session = await kernel.startSession()
    const result = await session.run('hi')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'the whole answer' })
    expect(server.requests).toHaveLength(2)
    expect(session.messages.filter((m) => m.role === 'assistant')).toHaveLength(1)
  })

  it('a non-retryable error fails the turn with the API’s message after one request', async () => {
    server.reply(apiError(401, 'invalid x-api-key', { type: 'authentication_error' }))
    const { kernel } = setup()
    const session = await kernel.startSession()
    const result = await session.run('hi')
    expect(result.status).toBe('failed')
    expect(result.error).toContain(
      'Anthropic API error 401 (authentication_error): invalid x-api-key — check the apiKey given to anthropicModel()',
    )
    expect(server.requests).toHaveLength(1)
  })

  it('interrupt while the server holds the stream: the connection closes and the turn ends interrupted', async () => {
    const { kernel } = setup()
    const session = await kernel.startSession()
    server.reply(sse(message([text('a long answer')]).slice(0, 4), { hold: true }))
    void server
      .waitForRequest(0)
      .then((request) => request.held)
      .then(() => session.interrupt('stop now'))
    const result = await session.run('hi')
    expect(result).toMatchObject({ status: 'interrupted', reason: 'stop now' })
    await server.requests[0]!.closed
    expect(server.requests).toHaveLength(1)
  })
})

describe('a full kernel turn with Claude Code hooks', () => {
  it('PostToolUse context lands in the tool_result and a Stop block adds one continuation, exactly as Claude Code sends them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-anthropic-hooks-'))
    const post = script(
      dir,
      'post.sh',
      `cat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX"}}'`,
    )
    const stop = script(dir, 'stop.sh', `if grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"KEEP-GOING"}'; fi`)
    const settings = join(dir, 'settings.json')
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: post }] }],
          Stop: [{ hooks: [{ type: 'command', command: stop }] }],
        },
      }),
    )
    const configDir = join(dir, 'config')
    const hooks = claudeCodeHooks({ configDir, managedSettingsPath: false, settings: [settings], envFileDir: join(dir, 'env') })
    server.reply(
      sse(message([toolUse('toolu_01', 'shell', { command: 'echo hi' })])),
      sse(message([text('done')])),
      sse(message([text('done, really')])),
    )
    const { kernel } = setup([hooks])
    const session = await kernel.startSession()
    const result = await session.run('say hi')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done, really' })
    expect(server.requests).toHaveLength(3)
    const second = server.requests[1]!.body.messages
    expect(second.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: 'hi\n\n<system-reminder>\nPostToolUse:Bash hook additional context: CTX\n</system-reminder>',
        },
      ],
    })
    const third = server.requests[2]!.body.messages
    expect(third.slice(0, 3)).toEqual(second)
    expect(third.slice(3)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: `<system-reminder>\nStop hook blocking error from command: "${stop}": KEEP-GOING\n</system-reminder>\n` },
          { type: 'text', text: `<system-reminder>\n${STOP_PREAMBLE}\nStop hook feedback:\nKEEP-GOING\n</system-reminder>` },
        ],
      },
    ])
  })
})

function script(dir: string, name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/bash\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}
