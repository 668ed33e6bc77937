import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { decodeBody, parseBody } from './body-decoding.js'
import type { ApiDialect, ReplyContext } from './dialect.js'
import { directiveReply } from './directives.js'
import { type RecordedRequest, type RequestSignals, recordRequest } from './recorded-request.js'
import { isMessageReply, type Reply } from './reply.js'
import { checkReply } from './reply-check.js'
import { ReplyStream } from './reply-stream.js'
import { RequestWaiters } from './request-waiters.js'
import { resolveMessage } from './resolve-message.js'
import { writeReply } from './write-reply.js'

export interface FakeModelServerOptions {
  /**
   * Answers a model request that no queued reply answers; `undefined` leaves it to the directives (or, `strict`, to
   * an error). Called once per request, as it arrives.
   */
  script?: (request: RecordedRequest) => Reply | undefined
  /** A model request with no queued or scripted reply gets a 500 naming it, instead of the directives' reply. */
  strict?: boolean
  /** Called with each model request once its answer is decided (`reply`, `toolCalls`), before the answer is written. */
  onRequest?: (request: RecordedRequest) => void
}

/** The life of each model request, in order: its answer started, ended, or the client closed the connection first. */
export interface ServerEvent {
  /** The request's index in `requests`. */
  n: number
  /** `Date.now()`. */
  t: number
  ev: 'start' | 'end' | 'aborted'
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string
  /** What an SDK or a program takes as the API's base URL: the `url` (Anthropic), `<url>/v1` (OpenAI). */
  readonly baseURL: string
  readonly port: number
  /** The model requests, in arrival order: `requests[n].n === n`. */
  readonly requests: RecordedRequest[]
  /** Every other request (a model list, `count_tokens`), answered with an empty success. */
  readonly otherRequests: RecordedRequest[]
  readonly events: ServerEvent[]
  /** Queues replies, one per coming model request, in order, before the script and the directives. */
  reply(...replies: Reply[]): void
  /** Settles with model request `n` (counted from 0) once it has arrived; rejects after `timeoutMs` if given. */
  waitForRequest(n: number, options?: { timeoutMs?: number }): Promise<RecordedRequest>
  /** Forgets the requests, the events and the queued replies: the next request is `n` 0 again. */
  reset(): void
  close(): Promise<void>
}

/** What makes a fake server one API's: its name in errors, its base path, its dialects, its answer to other requests. */
export interface ServerShape {
  label: string
  basePath: string
  dialects: ApiDialect[]
  otherAnswer(path: string): string
}

let instances = 0

export async function startFakeModelServer(shape: ServerShape, options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const runId = `${Date.now().toString(36)}${(instances++).toString(36)}${randomBytes(3).toString('hex')}`
  const requests: RecordedRequest[] = []
  const otherRequests: RecordedRequest[] = []
  const events: ServerEvent[] = []
  const queue: Reply[] = []
  const waiters = new RequestWaiters(shape.label, requests)

  function replyFor(request: RecordedRequest): Reply {
    const where = `${shape.label}, request #${request.n}`
    try {
      const reply = queue.shift() ?? options.script?.(request)
      if (reply !== undefined) {
        checkReply(reply, where)
        return reply
      }
      if (options.strict)
        return { kind: 'error', status: 500, message: `${where}: no reply queued or scripted (${request.method} ${request.path})` }
      return directiveReply(request)
    } catch (error) {
      return { kind: 'error', status: 500, message: `${where}: ${error instanceof Error ? error.message : String(error)}` }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const at = performance.now()
    const wallClock = Date.now()
    const method = req.method ?? ''
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    const dialect = shape.dialects.find((candidate) => candidate.matches(method, path))
    const raw = decodeBody(Buffer.concat(chunks), req.headers['content-encoding'])
    const log = dialect ? requests : otherRequests
    const { request, signals } = recordRequest({
      n: log.length,
      method,
      url: req.url ?? '',
      path,
      headers: req.headers,
      body: parseBody(raw),
      bytes: raw.length,
      api: dialect?.api,
      at,
      wallClock,
    })
    log.push(request)
    if (!dialect) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(shape.otherAnswer(path))
      return
    }
    const reply = replyFor(request)
    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {}
    const context: ReplyContext = { n: request.n, runId, body, stream: body.stream === true }
    const begin = (disconnectAfterEvents: number | undefined): ReplyStream => {
      options.onRequest?.(request)
      waiters.arrived(request)
      const out = new ReplyStream({ res, request, signals, disconnectAfterEvents })
      watchClose(res, request, signals, out)
      events.push({ n: request.n, t: Date.now(), ev: 'start' })
      return out
    }
    let out: ReplyStream
    if (isMessageReply(reply)) {
      const message = resolveMessage(reply, dialect, context)
      const text = message.deltas === undefined ? {} : { text: reply.text ?? message.deltas.join('') }
      request.reply = { ...reply, ...text, toolCalls: message.toolCalls }
      request.toolCalls = message.toolCalls
      out = begin(message.disconnectAfterEvents)
      await dialect.writeMessage(message, out, context)
    } else {
      request.reply = reply
      out = begin(undefined)
      await writeReply(dialect, out, reply, context)
    }
    if (out.ended) events.push({ n: request.n, t: Date.now(), ev: 'end' })
  }

  function watchClose(res: ServerResponse, request: RecordedRequest, signals: RequestSignals, out: ReplyStream): void {
    res.on('close', () => {
      if (!out.ended) {
        request.abortedAt = performance.now()
        events.push({ n: request.n, t: Date.now(), ev: 'aborted' })
        signals.aborted()
      }
      signals.closed()
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: { type: 'server_error', message: `${shape.label}: ${error instanceof Error ? error.message : String(error)}` },
        }),
      )
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    baseURL: `${url}${shape.basePath}`,
    port,
    requests,
    otherRequests,
    events,
    reply(...replies) {
      for (const [i, reply] of replies.entries()) checkReply(reply, `${shape.label}, reply ${i + 1} of ${replies.length} queued`)
      queue.push(...replies)
    },
    waitForRequest: (n, options = {}) => waiters.wait(n, options.timeoutMs),
    reset() {
      requests.length = 0
      otherRequests.length = 0
      events.length = 0
      queue.length = 0
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
