// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is hook configuration text, never a template.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { ExecProcessRunner } from '@harness-kernel/kernel'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type HandlerRunSpec, hookEnv, runHandler } from '../src/run/index.js'
import type { HttpHandler } from '../src/types.js'
import { closedPort, httpHandler, payloadJson, stdin } from './fixtures/run/helpers.js'
import { waitUntil } from './waits.js'

interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
}

const services = { processRunner: new ExecProcessRunner() }
const received: ReceivedRequest[] = []
const sockets = new Set<Socket>()
let server: Server
let base: string

const decision = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
})

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) })
      switch (request.url) {
        case '/decide':
          response.writeHead(200, { 'Content-Type': 'application/json' }).end(decision)
          return
        case '/empty':
          response.writeHead(204).end()
          return
        case '/fail':
          response.writeHead(500, { 'Content-Type': 'text/plain' }).end('database down')
          return
        case '/unavailable':
          response.writeHead(503).end()
          return
        case '/redirect':
          response.writeHead(302, { Location: '/decide' }).end()
          return
        case '/slow':
          setTimeout(() => response.writeHead(200).end('{}'), 5_000).unref()
          return
        default:
          response.writeHead(404).end()
      }
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  received.length = 0
})

function spec(handler: HttpHandler, fields: Partial<HandlerRunSpec> = {}): HandlerRunSpec {
  const env = hookEnv({ projectDir: '/proj', sessionId: 's', event: 'PreToolUse' })
  return { handler, stdin, cwd: '/', env, timeoutMs: 10_000, ...fields }
}

describe('http handlers', () => {
  it('POSTs the payload JSON as application/json and returns a 2xx body as stdout', async () => {
    const result = await runHandler(services, spec(httpHandler(`${base}/decide`)))
    expect(result).toMatchObject({
      kind: 'http',
      exitCode: 0,
      stdout: decision,
      stderr: '',
      httpStatus: 200,
      timedOut: false,
      aborted: false,
    })
    expect(result.error).toBeUndefined()
    expect(received).toHaveLength(1)
    const [request] = received
    expect(request!.method).toBe('POST')
    expect(request!.headers['content-type']).toBe('application/json')
    expect(request!.body.equals(Buffer.from(payloadJson, 'utf8'))).toBe(true)
  })

  it('treats any 2xx as success, an empty body included', async () => {
    const result = await runHandler(services, spec(httpHandler(`${base}/empty`)))
    expect(result).toMatchObject({ exitCode: 0, stdout: '', httpStatus: 204 })
  })

  it('turns a non-2xx status into a non-blocking error that keeps the body as stderr', async () => {
    const failed = await runHandler(services, spec(httpHandler(`${base}/fail`)))
    expect(failed).toMatchObject({
      exitCode: null,
      stdout: '',
      stderr: 'database down',
      httpStatus: 500,
      error: 'HTTP 500 Internal Server Error',
    })
    const unavailable = await runHandler(services, spec(httpHandler(`${base}/unavailable`)))
    expect(unavailable).toMatchObject({ exitCode: null, httpStatus: 503, error: 'HTTP 503 Service Unavailable' })
  })

  it('does not follow redirects', async () => {
    const result = await runHandler(services, spec(httpHandler(`${base}/redirect`)))
    expect(result).toMatchObject({ exitCode: null, httpStatus: 302, error: 'HTTP 302 Found' })
    expect(received.map((request) => request.url)).toEqual(['/redirect'])
  })

  it('times out a slow response', async () => {
    const result = await runHandler(services, spec(httpHandler(`${base}/slow`), { timeoutMs: 200 }))
    expect(result).toMatchObject({ exitCode: null, stdout: '', timedOut: true, aborted: false, error: 'timed out after 200 ms' })
    expect(result.httpStatus).toBeUndefined()
  })

  it('stops when the signal aborts', async () => {
    const controller = new AbortController()
    const running = runHandler(services, spec(httpHandler(`${base}/slow`), { signal: controller.signal }))
    await waitUntil(() => received.length === 1, 'the request')
    controller.abort()
    expect(await running).toMatchObject({ exitCode: null, timedOut: false, aborted: true, error: 'aborted' })
    const already = await runHandler(services, spec(httpHandler(`${base}/decide`), { signal: AbortSignal.abort() }))
    expect(already).toMatchObject({ aborted: true, error: 'aborted' })
    expect(received).toHaveLength(1)
  })

  it('names a refused connection', async () => {
    const port = await closedPort()
    const result = await runHandler(services, spec(httpHandler(`http://127.0.0.1:${port}/hook`)))
    expect(result).toMatchObject({ exitCode: null, timedOut: false, aborted: false })
    expect(result.error).toBe(`connection refused (connect ECONNREFUSED 127.0.0.1:${port})`)
  })

  it('reports an invalid URL without throwing', async () => {
    const result = await runHandler(services, spec(httpHandler('not a url')))
    expect(result).toMatchObject({ exitCode: null, error: 'invalid URL: not a url' })
  })

  it('interpolates only the allowed variables into headers; others become empty', async () => {
    process.env.HK_HTTP_FROM_PARENT = 'parent-value'
    try {
      const handler = httpHandler(`${base}/decide`, {
        headers: {
          Authorization: 'Bearer $MY_TOKEN',
          'X-Braced': '${MY_TOKEN}-${SECRET}-$SECRET',
          'X-Parent': '$HK_HTTP_FROM_PARENT',
          'X-Literal': 'costs $5, a lone $ and ${not closed',
          'X-Project': '${CLAUDE_PROJECT_DIR}',
        },
        allowedEnvVars: ['MY_TOKEN', 'HK_HTTP_FROM_PARENT', 'UNSET_BUT_ALLOWED'],
      })
      const env = { ...spec(handler).env, MY_TOKEN: 't0k3n', SECRET: 'hunter2' }
      await runHandler(services, spec(handler, { env }))
      const { headers } = received[0]!
      expect(headers.authorization).toBe('Bearer t0k3n')
      expect(headers['x-braced']).toBe('t0k3n--')
      expect(headers['x-parent']).toBe('parent-value')
      expect(headers['x-literal']).toBe('costs $5, a lone $ and ${not closed')
      expect(headers['x-project']).toBe('')
    } finally {
      delete process.env.HK_HTTP_FROM_PARENT
    }
  })

  it('lets a configured Content-Type header replace the default', async () => {
    await runHandler(services, spec(httpHandler(`${base}/decide`, { headers: { 'content-type': 'application/json; charset=utf-8' } })))
    expect(received[0]!.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('reports a header value fetch rejects as an error', async () => {
    const result = await runHandler(services, spec(httpHandler(`${base}/decide`, { headers: { 'X-Bad': 'line\nbreak' } })))
    expect(result.exitCode).toBeNull()
    expect(result.error).toMatch(/^request failed: /)
    expect(received).toHaveLength(0)
  })
})
