import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the server received it. */
export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body, asserted field by field
  body: any
  /** Settles when the client's connection for this request closes. */
  closed: Promise<void>
}

export type Reply = (res: ServerResponse, req: IncomingMessage) => void | Promise<void>

/**
 * A local Messages API on 127.0.0.1 (port 0): it records each request (method, url, headers, JSON body) and answers
 * with the next scripted reply; with none left it answers 500 so a test sees the extra request.
 */
export class FakeAnthropic {
  readonly requests: RecordedRequest[] = []
  readonly #server: Server
  readonly #replies: Reply[] = []
  readonly #waiters: { count: number; resolve: () => void }[] = []

  private constructor(server: Server) {
    this.#server = server
  }

  static async start(): Promise<FakeAnthropic> {
    const server = createServer()
    const fake = new FakeAnthropic(server)
    server.on('request', (req, res) => void fake.#handle(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return fake
  }

  get baseURL(): string {
    const { port } = this.#server.address() as AddressInfo
    return `http://127.0.0.1:${port}`
  }

  /** Queues replies, one per request, in order. */
  reply(...replies: Reply[]): this {
    this.#replies.push(...replies)
    return this
  }

  /** Settles once `count` requests have arrived. */
  received(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push({ count, resolve }))
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()))
    this.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: raw ? JSON.parse(raw) : undefined,
      closed,
    })
    for (const waiter of this.#waiters.filter((w) => this.requests.length >= w.count)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
    const reply = this.#replies.shift() ?? jsonError(500, 'api_error', `fake server: no reply scripted for request ${this.requests.length}`)
    await reply(res, req)
  }
}

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': 'req_fake_stream' }

/** A 200 event stream with these frames, then the end of the response. */
export function stream(frames: string[], headers: Record<string, string> = {}): Reply {
  return async (res) => {
    res.writeHead(200, { ...SSE_HEADERS, ...headers })
    for (const chunk of frames) res.write(chunk)
    res.end()
  }
}

/** Writes the first `count` frames, then destroys the socket (a connection cut mid-stream). */
export function cutStream(frames: string[], count: number): Reply {
  return async (res) => {
    res.writeHead(200, SSE_HEADERS)
    for (const chunk of frames.slice(0, count)) res.write(chunk)
    await new Promise<void>((resolve) => res.write('', () => resolve()))
    res.socket?.destroy()
  }
}

/** Writes these frames and then holds the stream open until the client goes away. */
export function holdStream(frames: string[], onHeld?: () => void): Reply {
  return async (res) => {
    res.writeHead(200, SSE_HEADERS)
    for (const chunk of frames) res.write(chunk)
    await new Promise<void>((resolve) => res.write('', () => resolve()))
    onHeld?.()
  }
}

/** An error answer as the API sends it: `{"type":"error","error":{"type","message"},"request_id"}`. */
export function jsonError(status: number, type: string, message: string, headers: Record<string, string> = {}): Reply {
  return async (res) => {
    const requestId = 'req_011CTestError'
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...headers })
    res.end(JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId }))
  }
}

/** A non-API answer (a proxy's page). */
export function plain(status: number, body: string, contentType = 'text/html'): Reply {
  return async (res) => {
    res.writeHead(status, { 'content-type': contentType })
    res.end(body)
  }
}
