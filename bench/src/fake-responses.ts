import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/**
 * A fake OpenAI Responses API on 127.0.0.1 for the Codex driver benchmarks (`codex-driver-steps`, `codex-steer`): the
 * real Codex runs against it, as `codex app-server` under the driver or as `codex exec`. Its replies stream as
 * server-sent events the way drivers/codex/test/support/fake-responses.ts sends them. A turn's prompt holds the
 * directives; the latest user message holding one is the turn's prompt (a steer after it holds none):
 *
 * - `[[calls:K:NAME:JSON]]`: K function calls of NAME with the arguments JSON, one per response, then a text. Calls are
 *   counted from the prompt on (the `function_call` items after it), so a session's earlier turns do not count.
 * - `[[stream:N:MS]]`: the text in N deltas, MS apart, while no user message follows the prompt (a steered follow-up
 *   gets its text at once).
 *
 * Requests other than POST …/responses answer 200 with an empty list. Bodies Codex compresses are decompressed.
 */

export interface InputItem {
  type?: string
  role?: string
  content?: { type: string; text?: string }[] | string
  name?: string
  call_id?: string
  arguments?: string
  output?: unknown
  [key: string]: unknown
}

export interface FakeRequest {
  /** The server's response number (POST …/responses only). */
  n: number
  /** Arrival (the whole body read), `performance.now()` ms: the bench process's clock. */
  at: number
  /** The body's size, bytes (decompressed). */
  bytes: number
  input: InputItem[]
  tools: string[]
  reply: { kind: 'call'; name: string } | { kind: 'text'; deltas: number }
  /** The first byte of the reply written, `performance.now()` ms. */
  firstByte?: number
  /** The reply's end (`response.completed` written), or undefined when Codex closed the stream first. */
  end?: number
  /** Codex closed the stream before the reply ended (a steer mid-stream discards the response). */
  aborted?: number
}

export interface FakeResponses {
  /** `http://127.0.0.1:<port>/v1`, a provider's base URL. */
  url: string
  requests: FakeRequest[]
  close(): Promise<void>
}

const CALLS = /\[\[calls:(\d+):([A-Za-z0-9_.-]+):([\s\S]*?)\]\](?!\])/
const STREAM = /\[\[stream:(\d+):(\d+)\]\]/

export const callsDirective = (calls: number, name: string, args: Record<string, unknown>): string =>
  `[[calls:${calls}:${name}:${JSON.stringify(args)}]]`
export const streamDirective = (deltas: number, ms: number): string => `[[stream:${deltas}:${ms}]]`

export function itemText(item: InputItem): string {
  const content = item.content
  if (typeof content === 'string') return content
  return (content ?? []).map((part) => part.text ?? '').join('')
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Codex sends plain JSON to a provider of its config (the driver's tests see it so); should it compress, this reads it. */
function decode(raw: Buffer, encoding: string | undefined): Buffer {
  if (encoding === undefined || encoding === 'identity') return raw
  if (encoding === 'gzip') return gunzipSync(raw)
  if (encoding === 'br') return brotliDecompressSync(raw)
  if (encoding === 'deflate') return inflateSync(raw)
  throw new Error(`fake responses: a body in ${encoding}, which this server does not read`)
}

/** The reply the prompt's directives ask for. */
function plan(input: InputItem[]): {
  reply: FakeRequest['reply']
  call?: { name: string; args: string }
  stream?: { n: number; ms: number }
} {
  let prompt = -1
  for (const [i, item] of input.entries())
    if (item.role === 'user' && (CALLS.test(itemText(item)) || STREAM.test(itemText(item)))) prompt = i
  if (prompt < 0) return { reply: { kind: 'text', deltas: 1 } }
  const text = itemText(input[prompt]!)
  const after = input.slice(prompt + 1)
  const calls = CALLS.exec(text)
  if (calls) {
    const made = after.filter((item) => item.type === 'function_call').length
    if (made < Number(calls[1])) return { reply: { kind: 'call', name: calls[2]! }, call: { name: calls[2]!, args: calls[3]! } }
  }
  const stream = STREAM.exec(text)
  if (stream && !after.some((item) => item.role === 'user')) {
    const n = Number(stream[1])
    return { reply: { kind: 'text', deltas: n }, stream: { n, ms: Number(stream[2]) } }
  }
  return { reply: { kind: 'text', deltas: 1 } }
}

export async function startFakeResponses(): Promise<FakeResponses> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  const requests: FakeRequest[] = []
  let seq = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const at = performance.now()
    if (!(req.method === 'POST' && /\/responses(\?|$)/.test(req.url ?? ''))) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
      return
    }
    const raw = decode(Buffer.concat(chunks), req.headers['content-encoding'] as string | undefined)
    const body = JSON.parse(raw.toString('utf8') || '{}') as { input?: InputItem[]; tools?: { type?: string; name?: string }[] }
    const input = body.input ?? []
    const n = seq++
    const decided = plan(input)
    const request: FakeRequest = {
      n,
      at,
      bytes: raw.length,
      input,
      tools: (body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '?'),
      reply: decided.reply,
    }
    requests.push(request)
    res.on('close', () => {
      if (request.end === undefined) request.aborted = performance.now()
    })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (event: Record<string, unknown>) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    const id = `resp_${runId}_${n}`
    send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } })
    request.firstByte = performance.now()
    let item: Record<string, unknown>
    if (decided.call) {
      const callId = `call_${runId}_${n}`
      item = { type: 'function_call', id: `fc_${callId}`, call_id: callId, name: decided.call.name, arguments: decided.call.args }
      send({ type: 'response.output_item.added', output_index: 0, item })
      send({ type: 'response.output_item.done', output_index: 0, item })
    } else {
      const text = `FINAL reply to request #${n}`
      const deltas = decided.stream?.n ?? 1
      const parts = Array.from({ length: deltas }, (_, i) => (deltas > 1 ? `${text} [${i + 1}/${deltas}] ` : text))
      const message = { type: 'message', role: 'assistant', id: `msg_${runId}_${n}`, content: [] as unknown[] }
      send({ type: 'response.output_item.added', output_index: 0, item: message })
      send({
        type: 'response.content_part.added',
        output_index: 0,
        item_id: message.id,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      })
      for (const part of parts) {
        if (res.destroyed) return
        send({ type: 'response.output_text.delta', output_index: 0, item_id: message.id, content_index: 0, delta: part })
        if (decided.stream?.ms) await sleep(decided.stream.ms)
      }
      item = { ...message, content: [{ type: 'output_text', text: parts.join(''), annotations: [] }] }
      send({ type: 'response.output_item.done', output_index: 0, item })
    }
    if (res.destroyed) return
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    }
    send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage } })
    request.end = performance.now()
    res.end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'server_error', message: `fake responses: ${String(error)}` } }))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
