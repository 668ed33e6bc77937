import { join } from 'node:path'
import { apiError, type FakeAnthropic, type FakeOpenAI, startFakeAnthropic, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { harness, project, sessionsIn } from './support.js'

/** Keys and endpoints of the machine's own environment must not reach these runs. */
const NO_KEYS = {
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  DEEPSEEK_API_KEY: '',
  DEEPSEEK_BASE_URL: '',
  OLLAMA_BASE_URL: '',
  OLLAMA_HOST: '',
}

describe('harness run --model PROVIDER:MODEL', () => {
  const servers: FakeAnthropic[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })

  it('anthropic:MODEL completes a multi-step tool turn against a Messages API server', async () => {
    const server = await startFakeAnthropic({ strict: true })
    servers.push(server)
    server.reply(
      { text: 'Let me look.', toolCalls: [{ id: 'toolu_1', name: 'shell', input: { command: 'echo hello from shell' } }] },
      { text: 'The shell said hello.' },
    )
    const cwd = project()
    const result = await harness(['run', 'say hello', '--model', 'anthropic:claude-test-1'], {
      cwd,
      env: { ...NO_KEYS, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.baseURL },
    })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('The shell said hello.\n')
    expect(server.requests).toHaveLength(2)
    expect(server.requests[0]!.body).toMatchObject({ model: 'claude-test-1', stream: true })
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello from shell' }],
    })
  })

  it('without a model and without keys: exit 2, and every provider with the variables it reads', async () => {
    const result = await harness(['run', 'hello'], { cwd: project(), env: NO_KEYS })
    expect(result.code).toBe(2)
    const lines = result.stderr.split('\n')
    expect(lines[0]).toBe(
      'harness: no model: pass --model scripted:FILE|openai:MODEL|anthropic:MODEL|deepseek:MODEL|ollama:MODEL|openai-chat:MODEL, set "model" in harness.config.{mjs,js,ts,mts}, or set HARNESS_MODEL. The providers:',
    )
    expect(lines).toContain('  scripted:FILE      replies from a script file: offline, no key')
    expect(result.stderr).toContain('  anthropic:MODEL    Anthropic, Messages API. ANTHROPIC_API_KEY (the API key; not set)')
    expect(result.stderr).toContain('  openai:MODEL       OpenAI, Responses API. OPENAI_API_KEY (the API key; not set)')
    expect(result.stderr).toContain('  ollama:MODEL       a local Ollama server')
  })

  it.each([
    ['anthropic:claude-test-1', 'harness: anthropic:claude-test-1 needs an API key: set ANTHROPIC_API_KEY'],
    ['openai:gpt-test', 'harness: openai:gpt-test needs an API key: set OPENAI_API_KEY'],
    ['deepseek:deepseek-chat', 'harness: deepseek:deepseek-chat needs an API key: set DEEPSEEK_API_KEY'],
    [
      'openai-chat:qwen3',
      "harness: openai-chat:qwen3 needs the server's URL: set OPENAI_BASE_URL (e.g. OPENAI_BASE_URL=http://127.0.0.1:8000/v1)",
    ],
  ])('%s without its key or server: exit 2 before the session starts, naming the variable to set', async (spec, message) => {
    const cwd = project()
    const result = await harness(['run', 'hello', '--model', spec], { cwd, env: NO_KEYS })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`${message}\n`)
    expect(result.stdout).toBe('')
    expect(sessionsIn(join(cwd, '.harness/sessions'))).toEqual([])
  })

  it('a failing model reads as a person would want: the API’s own message, once, and exit 1', async () => {
    const server = await startFakeAnthropic({ strict: true })
    servers.push(server)
    server.reply(apiError(401, 'invalid x-api-key', { type: 'authentication_error' }))
    const result = await harness(['run', 'hello', '--model', 'anthropic:claude-test-1'], {
      cwd: project(),
      env: { ...NO_KEYS, ANTHROPIC_API_KEY: 'wrong', ANTHROPIC_BASE_URL: server.baseURL },
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Anthropic API error 401 (authentication_error): invalid x-api-key')
    expect(server.requests).toHaveLength(1)
  })
})

describe('harness run --model for OpenAI and OpenAI-compatible servers', () => {
  let server: FakeOpenAI
  beforeAll(async () => {
    server = await startFakeOpenAI({ strict: true })
  })
  afterEach(() => server.reset())
  afterAll(() => server.close())

  it('openai:MODEL completes a multi-step tool turn over the Responses API', async () => {
    server.reply(
      { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'shell', input: { command: 'echo hello from shell' } }] },
      { text: 'The shell said hello.' },
    )
    const result = await harness(['run', 'say hello', '--model', 'openai:gpt-test'], {
      cwd: project(),
      env: { ...NO_KEYS, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL },
    })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('The shell said hello.\n')
    const bodies = server.requests.slice(-2).map((request) => request.body)
    expect(bodies.map((body) => [body.model, body.stream])).toEqual([
      ['gpt-test', true],
      ['gpt-test', true],
    ])
    expect(bodies[1].input.at(-1)).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'hello from shell' })
  })

  it.each([
    ['ollama:qwen-test', { OLLAMA_BASE_URL: '@' }],
    ['deepseek:deepseek-test', { DEEPSEEK_API_KEY: 'sk-deepseek', DEEPSEEK_BASE_URL: '@' }],
    ['openai-chat:local-test', { OPENAI_BASE_URL: '@' }],
  ])('%s completes a multi-step tool turn over Chat Completions', async (spec, vars) => {
    server.reply(
      { toolCalls: [{ id: 'call_1', name: 'shell', input: { command: 'echo hello from shell' } }] },
      { text: ['The shell ', 'said hello.'] },
    )
    const env = Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, value === '@' ? server.baseURL : value]))
    const result = await harness(['run', 'say hello', '--model', spec], { cwd: project(), env: { ...NO_KEYS, ...env } })
    expect(result.stderr).toContain('[turn] completed')
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('The shell said hello.\n')
    const bodies = server.requests.slice(-2).map((request) => request.body)
    expect(bodies[0].model).toBe(spec.slice(spec.indexOf(':') + 1))
    expect(bodies[1].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'hello from shell' })
  })
})
