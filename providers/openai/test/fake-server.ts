import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll } from 'vitest'

/** What the server received: one entry per HTTP request. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are asserted field by field
  body: any
  /** Resolves when the client's connection for this request closed before the reply finished (an abort). */
  aborted: Promise<void>
}

/** How the server answers one request; `held` when it leaves the response open on purpose. */
export type Reply = (res: ServerResponse, req: IncomingMessage) => undefined | 'held' | Promise<undefined | 'held'>

export interface FakeServer {
  /** `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string
  readonly requests: RecordedRequest[]
  /** Queues replies, one per coming request, in order; a request with none left gets a 599 naming the problem. */
  reply(...replies: Reply[]): void
  /** Resolves once a `hold` reply has sent its frames (the stream stays open). */
  holding(): Promise<void>
}

/** A real HTTP server on 127.0.0.1 (port 0) for a test file; the reply queue is emptied after each test. */
export function fakeServerPerFile(): FakeServer {
  const requests: RecordedRequest[] = []
  const queue: Reply[] = []
  let holdWaiters: (() => void)[] = []
  let held = false
  let server: Server | undefined
  let baseURL = ''

  const fake: FakeServer = {
    get baseURL() {
      return baseURL
    },
    requests,
    reply: (...replies) => queue.push(...replies),
    holding: () => (held ? Promise.resolve() : new Promise((resolve) => holdWaiters.push(resolve))),
  }

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const text = await readBody(req)
      let resolveAborted: () => void = () => {}
      const aborted = new Promise<void>((resolve) => {
        resolveAborted = resolve
      })
      res.on('close', () => {
        if (!res.writableFinished) resolveAborted()
      })
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: parseJson(text), aborted })
      const reply = queue.shift()
      if (!reply) {
        res.writeHead(599, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: `fake server: no reply queued for request ${requests.length}` } }))
        return
      }
      if ((await reply(res, req)) === 'held') {
        held = true
        for (const wake of holdWaiters) wake()
        holdWaiters = []
      }
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  })

  afterEach(() => {
    requests.length = 0
    queue.length = 0
    held = false
    holdWaiters = []
  })

  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve())
  })

  return fake
}

/** Answers with a JSON body (an error, as the API sends them). */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
    return undefined
  }
}

export interface SseOptions {
  /** Destroy the socket after this many frames (a stream cut mid-way). */
  cutAfter?: number
  /** End the response cleanly after this many frames, without the rest (a server that stops early). */
  endAfter?: number
  /** Send the frames, then keep the stream open until the client goes away. */
  hold?: boolean
}

/** Answers `text/event-stream` with the given SSE frames, each written (and flushed) separately. */
export function sse(frames: string[], options: SseOptions = {}): Reply {
  return async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const cut = options.cutAfter ?? options.endAfter
    for (const [index, frame] of frames.entries()) {
      if (cut !== undefined && index === cut) break
      await write(res, frame)
    }
    if (options.cutAfter !== undefined) {
      res.socket?.destroy()
      return undefined
    }
    if (options.hold) return 'held'
    res.end()
    return undefined
  }
}

function write(res: ServerResponse, frame: string): Promise<void> {
  return new Promise((resolve, reject) => res.write(frame, (error) => (error ? reject(error) : resolve())))
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
