import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ModelCallOptions, ModelError, type ModelRequest, userMessage } from '@harness-kernel/kernel'
import { apiError, type FakeAnthropic, plain, sse, startFakeAnthropic } from '@harness-kernel/testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AnthropicProvider } from '../src/index.js'
import { frame, message, messageStart, text } from './sse.js'

let server: FakeAnthropic
beforeEach(async () => {
  server = await startFakeAnthropic({ strict: true })
})
afterEach(async () => {
  await server.close()
})

const request: ModelRequest = { messages: [userMessage('hi')], tools: [] }
const provider = (extra: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
  new AnthropicProvider({ model: 'claude-test-1', baseURL: server.baseURL, apiKey: 'test-key', ...extra })
const call = (signal = new AbortController().signal): ModelCallOptions => ({ signal, attempt: 1, sessionId: 's', turnId: 't', step: 1 })

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ModelError)
  return error as ModelError
}

describe('API errors read as a person would want', () => {
  it.each([
    [
      401,
      'authentication_error',
      'invalid x-api-key',
      'Anthropic API error 401 (authentication_error): invalid x-api-key — check the apiKey given to anthropicModel()',
    ],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', undefined],
    [404, 'not_found_error', 'model: claude-x', 'Anthropic API error 404 (not_found_error): model: claude-x'],
    [400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum', undefined],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', undefined],
  ])('%i %s is not retryable', async (status, type, apiMessage, expected) => {
    server.reply(apiError(status, apiMessage, { type }))
    const error = await failure(provider().generate(request, call()))
    expect(error).toMatchObject({
      message: expected ?? `Anthropic API error ${status} (${type}): ${apiMessage}`,
      retryable: false,
      status,
      retryAfterMs: undefined,
    })
    expect(server.requests).toHaveLength(1)
  })

  it.each([
    [500, 'api_error', 'Internal server error'],
    [529, 'overloaded_error', 'Overloaded'],
    [408, 'timeout_error', 'Request timed out'],
  ])('%i %s is retryable, and sent once (no SDK retry)', async (status, type, apiMessage) => {
    server.reply(apiError(status, apiMessage, { type }))
    const error = await failure(provider().generate(request, call()))
    expect(error).toMatchObject({ message: `Anthropic API error ${status} (${type}): ${apiMessage}`, retryable: true, status })
    expect(server.requests).toHaveLength(1)
  })

  it('429 with retry-after: 1 is retryable after 1000 ms; retry-after-ms wins when both are sent', async () => {
    server.reply(
      apiError(429, 'Number of request tokens has exceeded your per-minute rate limit', { type: 'rate_limit_error', retryAfter: 1 }),
      apiError(429, 'slow down', { type: 'rate_limit_error', retryAfter: 3, retryAfterMs: 1500 }),
    )
    expect(await failure(provider().generate(request, call()))).toMatchObject({
      message: 'Anthropic API error 429 (rate_limit_error): Number of request tokens has exceeded your per-minute rate limit',
      retryable: true,
      status: 429,
      retryAfterMs: 1000,
    })
    expect(await failure(provider().generate(request, call()))).toMatchObject({ retryAfterMs: 1500 })
    expect(server.requests).toHaveLength(2)
  })

  it('x-should-retry from the server decides', async () => {
    server.reply(
      apiError(500, 'do not retry this', { type: 'api_error', headers: { 'x-should-retry': 'false' } }),
      apiError(400, 'try again', { type: 'invalid_request_error', headers: { 'x-should-retry': 'true' } }),
    )
    expect(await failure(provider().generate(request, call()))).toMatchObject({ retryable: false, status: 500 })
    expect(await failure(provider().generate(request, call()))).toMatchObject({ retryable: true, status: 400 })
  })

  it("a proxy's HTML page: status, reason and the page's text", async () => {
    server.reply(plain(502, '<html><body><h1>502 Bad Gateway</h1></body></html>'))
    expect(await failure(provider().generate(request, call()))).toMatchObject({
      message: 'Anthropic API error 502 (Bad Gateway): 502 Bad Gateway',
      retryable: true,
      status: 502,
    })
  })

  it('a host that refuses connections: which URL, and why; retryable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const error = await failure(provider({ baseURL: `http://127.0.0.1:${port}` }).generate(request, call()))
    expect(error).toMatchObject({
      message: `cannot reach the Anthropic API at http://127.0.0.1:${port} (connection refused)`,
      retryable: true,
    })
  })

  it('no response within timeoutMs: retryable, naming the URL and the wait', async () => {
    server.reply({ kind: 'no-answer' })
    // The clock runs from the call, so the wait must outlast a loaded machine's delay in getting the request across.
    expect(await failure(provider({ timeoutMs: 2000 }).generate(request, call()))).toMatchObject({
      message: `the Anthropic API at ${server.baseURL} did not start a response within 2000 ms`,
      retryable: true,
    })
    expect(server.requests).toHaveLength(1)
  })

  it('no credentials anywhere: says what to set, sends nothing', async () => {
    const saved = { key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN, dir: process.env.ANTHROPIC_CONFIG_DIR }
    delete process.env.ANTHROPIC_API_KEY
    delete process.env.ANTHROPIC_AUTH_TOKEN
    process.env.ANTHROPIC_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'hk-anthropic-config-'))
    try {
      const model = new AnthropicProvider({ model: 'claude-test-1', baseURL: server.baseURL })
      expect(await failure(model.generate(request, call()))).toMatchObject({
        message: 'no Anthropic credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or pass apiKey to anthropicModel()',
        retryable: false,
      })
      expect(server.requests).toHaveLength(0)
    } finally {
      restore('ANTHROPIC_API_KEY', saved.key)
      restore('ANTHROPIC_AUTH_TOKEN', saved.token)
      restore('ANTHROPIC_CONFIG_DIR', saved.dir)
    }
  })
})

describe('stream failures', () => {
  const overloaded = `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`

  it('an `event: error` frame mid-stream (overloaded) is retryable', async () => {
    server.reply(sse([...message([text('partial answer')]).slice(0, 4), overloaded]))
    expect(await failure(provider().generate(request, call()))).toMatchObject({
      message: 'Anthropic API error in the stream (overloaded_error): Overloaded',
      retryable: true,
      status: undefined,
    })
  })

  it('an `event: error` frame with invalid_request_error is not retryable', async () => {
    const invalid = frame('error', { error: { type: 'invalid_request_error', message: 'bad block' } })
    server.reply(sse([messageStart(), invalid]))
    expect(await failure(provider().generate(request, call()))).toMatchObject({
      message: 'Anthropic API error in the stream (invalid_request_error): bad block',
      retryable: false,
    })
  })

  it('a connection cut mid-stream is retryable', async () => {
    server.reply(sse(message([text('a long answer that never ends')]), { cutAfter: 4 }))
    const deltas: string[] = []
    const error = await failure(provider().generate(request, { ...call(), onTextDelta: (delta) => deltas.push(delta) }))
    expect(error).toMatchObject({ message: 'the stream was cut off before the message completed (connection closed)', retryable: true })
    expect(deltas).toEqual(['a long answer t'])
  })

  it('a response that ends before message_stop is retryable', async () => {
    server.reply(sse(message([text('half')]).slice(0, 5)))
    expect(await failure(provider().generate(request, call()))).toMatchObject({
      message: 'the stream ended before the message completed',
      retryable: true,
    })
  })
})

describe('a stalled stream', () => {
  it('no event for streamIdleTimeoutMs: a retryable error, and the connection is closed', async () => {
    server.reply(sse(message([text('and then nothing')]).slice(0, 3), { hold: true }))
    expect(await failure(provider({ streamIdleTimeoutMs: 100 }).generate(request, call()))).toMatchObject({
      message: 'the stream stalled: no data from the Anthropic API for 100 ms',
      retryable: true,
    })
    await server.requests[0]!.closed
  })
})

describe('abort', () => {
  it('mid-stream: rejects with the signal’s reason (not a ModelError) and the server sees the connection close', async () => {
    const controller = new AbortController()
    const reason = new Error('stop now')
    server.reply(sse(message([text('thinking about it')]).slice(0, 4), { hold: true }))
    void server
      .waitForRequest(0)
      .then((request) => request.held)
      .then(() => controller.abort(reason))
    const result = await provider()
      .generate(request, call(controller.signal))
      .catch((error: unknown) => error)
    expect(result).toBe(reason)
    await server.requests[0]!.closed
  })

  it('before the call: rejects at once and sends nothing', async () => {
    const controller = new AbortController()
    controller.abort(new Error('already'))
    await expect(provider().generate(request, call(controller.signal))).rejects.toThrow('already')
    expect(server.requests).toHaveLength(0)
  })
})

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
}
