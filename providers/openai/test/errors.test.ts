import { createServer } from 'node:net'
import { ModelError } from '@harness-kernel/kernel'
import { type FakeOpenAI, json, plain, sse, startFakeOpenAI } from '@harness-kernel/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAIProvider, type OpenAIModelOptions } from '../src/index.js'
import { chatText } from './chat-wire.js'
import { generate } from './provider-call.js'
import { responsesStream, text } from './responses-wire.js'

let server: FakeOpenAI
beforeAll(async () => {
  server = await startFakeOpenAI({ strict: true })
})
afterEach(() => server.reset())
afterAll(() => server.close())

const provider = (options: Partial<OpenAIModelOptions> = {}) =>
  createOpenAIProvider({ model: 'gpt-x', baseURL: server.baseURL, apiKey: 'sk-bad', ...options })
const host = () => new URL(server.baseURL).host
const failure = (options: Partial<OpenAIModelOptions> = {}): Promise<ModelError> =>
  generate(provider(options), {}).then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error as ModelError,
  )

describe('HTTP errors read as a person would want', () => {
  it('401 as OpenAI sends it: status, code, the message, and which key to check; not retryable', async () => {
    const message = 'Incorrect API key provided: sk-bad. You can find your API key at https://platform.openai.com/account/api-keys.'
    server.reply(json(401, { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }))
    const error = await failure()
    expect(error).toBeInstanceOf(ModelError)
    expect(error.message).toBe(`${host()} error 401 (invalid_api_key): ${message} — check the apiKey option`)
    expect(error).toMatchObject({ retryable: false, status: 401, retryAfterMs: undefined })
    expect(server.requests).toHaveLength(1)
  })

  it('401 with the key from OPENAI_API_KEY names the variable', async () => {
    server.reply(json(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }))
    const error = await generate(
      createOpenAIProvider({ model: 'gpt-x', baseURL: server.baseURL, env: { OPENAI_API_KEY: 'sk-env' } }),
      {},
    ).catch((caught: unknown) => caught as ModelError)
    expect((error as ModelError).message).toMatch(/ — check OPENAI_API_KEY$/)
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-env')
  })

  it('401 names where the key came from when the caller says so', async () => {
    server.reply(json(401, { error: { message: 'Authentication Fails, Your api key is invalid', type: 'authentication_error' } }))
    const error = await failure({ apiKeySource: 'DEEPSEEK_API_KEY' })
    expect(error.message).toBe(
      `${host()} error 401 (authentication_error): Authentication Fails, Your api key is invalid — check DEEPSEEK_API_KEY`,
    )
  })

  it('404 for an unknown model names the model', async () => {
    const message = 'The model `gpt-x` does not exist or you do not have access to it.'
    server.reply(json(404, { error: { message, type: 'invalid_request_error', param: null, code: 'model_not_found' } }))
    const error = await failure()
    expect(error.message).toBe(`${host()} error 404 (model_not_found): ${message} — check the model name "gpt-x"`)
    expect(error.retryable).toBe(false)
  })

  it('404 without a body from a server with no Responses API suggests the chat API', async () => {
    server.reply({ kind: 'http', status: 404 })
    const error = await failure()
    expect(error.message).toBe(
      `${host()} error 404: Not Found — check baseURL ${server.baseURL} and the model name "gpt-x"; if the server has no Responses API, use api: 'chat'`,
    )
  })

  it('error bodies of compatible servers keep their message (vLLM, FastAPI, Ollama shapes)', async () => {
    server.reply(
      json(404, { object: 'error', message: 'The model `gpt-x` does not exist.', type: 'NotFoundError', param: null, code: 404 }),
      json(422, { detail: [{ loc: ['body', 'model'], msg: 'field required' }] }),
      json(400, { error: 'invalid character in JSON' }),
      plain(502, '<html><body>Bad Gateway</body></html>'),
    )
    const api = { api: 'chat' as const }
    expect((await failure(api)).message).toBe(
      `${host()} error 404 (NotFoundError): The model \`gpt-x\` does not exist. — check the model name "gpt-x"`,
    )
    expect((await failure(api)).message).toBe(`${host()} error 422: [{"loc":["body","model"],"msg":"field required"}]`)
    expect((await failure(api)).message).toBe(`${host()} error 400: invalid character in JSON`)
    const gateway = await failure(api)
    expect(gateway.message).toBe(`${host()} error 502: Bad Gateway`)
    expect(gateway.retryable).toBe(true)
  })

  it('500 is retryable and keeps the server message', async () => {
    server.reply(
      json(500, { error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } }),
    )
    const error = await failure()
    expect(error).toMatchObject({
      retryable: true,
      status: 500,
      message: `${host()} error 500 (server_error): The server had an error while processing your request.`,
    })
    // The SDK would retry a 500 twice on its own; its retries are off, so the kernel's are the only ones.
    expect(server.requests).toHaveLength(1)
  })

  it('429 with retry-after (seconds) is retryable after that long; retry-after-ms wins when both are sent', async () => {
    const limit = { error: { message: 'Rate limit reached for gpt-x.', type: 'requests', code: 'rate_limit_exceeded' } }
    server.reply(json(429, limit, { 'retry-after': '1' }), json(429, limit, { 'retry-after': '1', 'retry-after-ms': '250' }))
    expect(await failure()).toMatchObject({ retryable: true, status: 429, retryAfterMs: 1000 })
    expect(await failure()).toMatchObject({ retryable: true, retryAfterMs: 250 })
    expect(server.requests).toHaveLength(2)
  })

  it('429 for an exhausted quota is final and says what to check', async () => {
    const message = 'You exceeded your current quota, please check your plan and billing details.'
    server.reply(json(429, { error: { message, type: 'insufficient_quota', code: 'insufficient_quota' } }))
    const error = await failure()
    expect(error).toMatchObject({ retryable: false, status: 429 })
    expect(error.message).toBe(`${host()} error 429 (insufficient_quota): ${message} — check your plan and billing details`)
  })

  it('x-should-retry from the server decides', async () => {
    server.reply(json(400, { error: { message: 'try later', type: 'x' } }, { 'x-should-retry': 'true' }))
    expect(await failure()).toMatchObject({ retryable: true, status: 400 })
  })
})

describe('connection failures', () => {
  it('a server that is not running: cannot reach <baseURL> (connection refused) — is the server running?', async () => {
    const port = await freePort()
    const baseURL = `http://127.0.0.1:${port}/v1`
    const error = await generate(createOpenAIProvider({ model: 'qwen3', api: 'chat', baseURL }), {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({ retryable: true, message: `cannot reach ${baseURL} (connection refused) — is the server running?` })
  })

  it('no API key for a remote server fails before any request, saying what to set', async () => {
    const error = await generate(createOpenAIProvider({ model: 'gpt-x', baseURL: 'https://api.example.invalid/v1', env: {} }), {}).catch(
      (caught: unknown) => caught,
    )
    expect(error).toMatchObject({
      retryable: false,
      message: 'no API key for api.example.invalid: set OPENAI_API_KEY or pass apiKey to openaiModel()',
    })
  })

  it('a loopback server needs no key: a placeholder is sent', async () => {
    server.reply(sse(chatText(['ok'])))
    await generate(createOpenAIProvider({ model: 'llama3', api: 'chat', baseURL: server.baseURL, env: {} }), {})
    expect(server.requests[0]!.headers.authorization).toBe('Bearer local-no-key')
  })
})

describe('streams that break', () => {
  it('a socket destroyed mid-stream is a retryable ModelError', async () => {
    server.reply(sse(responsesStream([text('Hello world', ['Hel', 'lo', ' world'])]), { cutAfter: 5 }))
    const deltas: string[] = []
    const error = await generate(provider(), {}, { deltas }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({ retryable: true })
    expect((error as Error).message).toMatch(new RegExp(`^${host()}: the stream ended before the response completed`))
    expect(deltas).toEqual(['Hel'])
  })

  it('a stream that goes silent is abandoned after streamIdleTimeoutMs (retryable), and its request closed', async () => {
    server.reply(sse(responsesStream([text('Hello')]).slice(0, 3), { hold: true }))
    const error = await generate(provider({ streamIdleTimeoutMs: 100 }), {}).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ retryable: true, message: `${host()}: the stream stalled (no data for 0.1 s, streamIdleTimeoutMs)` })
    await server.requests[0]!.aborted
  })
})

describe('abort', () => {
  it('aborting the signal aborts the HTTP request and rejects with the signal reason, not a ModelError', async () => {
    server.reply(sse(responsesStream([text('Hello')]).slice(0, 4), { hold: true }))
    const controller = new AbortController()
    const deltas: string[] = []
    const pending = generate(provider(), {}, { signal: controller.signal, deltas })
    await (await server.waitForRequest(0)).held
    const reason = new Error('user pressed escape')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
    await server.requests[0]!.aborted
    expect(server.requests).toHaveLength(1)
  })

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController()
    controller.abort(new Error('gone'))
    await expect(generate(provider(), {}, { signal: controller.signal })).rejects.toThrow('gone')
    expect(server.requests).toHaveLength(0)
  })

  it('a failing onTextDelta is passed through as it is', async () => {
    server.reply(sse(responsesStream([text('Hello')])))
    const boom = new Error('renderer crashed')
    const error = await createOpenAIProvider({ model: 'gpt-x', baseURL: server.baseURL, apiKey: 'k' })
      .generate(
        { messages: [], tools: [] },
        {
          signal: new AbortController().signal,
          attempt: 1,
          sessionId: 's',
          turnId: 't',
          step: 1,
          onTextDelta: () => {
            throw boom
          },
        },
      )
      .catch((caught: unknown) => caught)
    expect(error).toBe(boom)
  })
})

/** A port nothing listens on: bound, then released. */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
