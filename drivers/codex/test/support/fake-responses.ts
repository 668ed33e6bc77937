/**
 * A fake OpenAI Responses API (SSE) on 127.0.0.1 for driving the real Codex offline. Behaviour follows
 * shared/real-clients/driver-probe/fake-responses.mjs, scripted by directives in the user text of a
 * request's `input`:
 *
 * - `[[call:NAME:JSON]]` one function call; `[[calls:[{"name":…,"arguments":{…}},…]]]` several in one response;
 *   `[[shell:CMD]]` Codex's `exec_command` (escalated when CMD starts with `!`).
 * - k = the function calls already answered in the input (`function_call_output` items, calls of one response
 *   counted once); the reply is call directive k+1, else the text `FINAL reply to request #N`.
 * - `[[stream:N:MS]]` the text in N deltas, MS apart; `[[slow:MS]]` hold every reply MS before its first event.
 * - Call ids are `call_<run id>_<n>` (`…_<n>_<i>` for several), unique across server instances.
 *
 * Requests other than POST …/responses answer 200 with an empty list.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

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

export interface RecordedRequest {
  n: number
  t: number
  body: { model?: string; input?: InputItem[]; tools?: { type?: string; name?: string; [key: string]: unknown }[]; [key: string]: unknown }
}

export type ServerEvent = { n: number; t: number; ev: 'start' | 'end' | 'aborted' }

export interface Call {
  name: string
  arguments: unknown
}

export interface FakeResponses {
  /** `http://127.0.0.1:<port>/v1`, for a provider's base URL. */
  url: string
  requests: RecordedRequest[]
  events: ServerEvent[]
  close(): Promise<void>
}

const DIRECTIVE = /\[\[(call|calls|shell|stream|slow):([\s\S]*?)\]\](?!\])/g
let instances = 0
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The text of every part of every user message in the request's input, in order. */
export function userTexts(request: RecordedRequest): string[] {
  return (request.body.input ?? []).filter((item) => item.role === 'user').flatMap(partTexts)
}

function partTexts(item: InputItem): string[] {
  return typeof item.content === 'string' ? [item.content] : (item.content ?? []).map((part) => part.text ?? '')
}

export function itemText(item: InputItem): string {
  const content = item.content
  if (typeof content === 'string') return content
  return (content ?? []).map((part) => part.text ?? '').join('')
}

/** The names of the tools the request offers (function tools by name, others by type). */
export function toolsOf(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '?')
}

/**
 * The request's input after its last assistant output: what is new since the model last spoke, as
 * `output:<text>` and `user:<text>` (a message of several parts gives one entry a part). Codex's own
 * context (developer messages, `<environment_context>`) is left out.
 */
export function newInput(request: RecordedRequest): string[] {
  const input = request.body.input ?? []
  let from = 0
  for (const [i, item] of input.entries()) if (item.type === 'function_call' || item.role === 'assistant') from = i + 1
  return input.slice(from).flatMap(describe)
}

function describe(item: InputItem): string[] {
  if (item.type === 'function_call_output') return [`output:${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}`]
  if (item.type === 'function_call') return [`call:${item.name}`]
  if (item.role === 'developer' || item.role === 'system') return []
  return partTexts(item)
    .filter((text) => !text.startsWith('<environment_context>'))
    .map((text) => `${item.role ?? item.type}:${text}`)
}

interface Directives {
  calls: Call[][]
  stream: { n: number; ms: number } | undefined
  slow: number
}

function directives(input: InputItem[]): Directives {
  const found: Directives = { calls: [], stream: undefined, slow: 0 }
  for (const item of input) {
    if (item.role !== 'user') continue
    for (const [, kind, arg = ''] of itemText(item).matchAll(DIRECTIVE)) {
      if (kind === 'slow') found.slow = Number(arg)
      else if (kind === 'stream') {
        const [n = 1, ms = 0] = arg.split(':').map(Number)
        found.stream = { n, ms }
      } else if (kind === 'calls') found.calls.push(JSON.parse(arg) as Call[])
      else if (kind === 'shell') {
        const escalate = arg.startsWith('!')
        const cmd = escalate ? arg.slice(1) : arg
        found.calls.push([
          {
            name: 'exec_command',
            arguments: {
              cmd,
              yield_time_ms: 10_000,
              ...(escalate ? { sandbox_permissions: 'require_escalated', justification: 'asked by the test' } : {}),
            },
          },
        ])
      } else {
        const colon = arg.indexOf(':')
        found.calls.push([{ name: arg.slice(0, colon), arguments: JSON.parse(arg.slice(colon + 1)) }])
      }
    }
  }
  return found
}

/** Responses that made calls: consecutive `function_call` items are one response. */
function answeredCalls(input: InputItem[]): number {
  let responses = 0
  let previous: string | undefined
  for (const item of input) {
    if (item.type === 'function_call' && previous !== 'function_call') responses++
    previous = item.type
  }
  return responses
}

export async function startFakeResponses(): Promise<FakeResponses> {
  const runId = `${Date.now().toString(36)}${(instances++).toString(36)}${randomBytes(3).toString('hex')}`
  const requests: RecordedRequest[] = []
  const events: ServerEvent[] = []
  let seq = 0

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (!(req.method === 'POST' && /\/responses(\?|$)/.test(req.url ?? ''))) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
        return
      }
      const n = seq++
      let body: RecordedRequest['body'] = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body']
      } catch {}
      requests.push({ n, t: Date.now(), body })
      void respond(n, body.input ?? [], res)
    })
  })

  async function respond(n: number, input: InputItem[], res: ServerResponse): Promise<void> {
    let ended = false
    events.push({ n, t: Date.now(), ev: 'start' })
    res.on('close', () => {
      if (!ended) events.push({ n, t: Date.now(), ev: 'aborted' })
    })
    const found = directives(input)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (event: Record<string, unknown>) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    if (found.slow > 0) await sleep(found.slow)
    const id = `resp_${runId}_${n}`
    send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } })
    const calls = found.calls[answeredCalls(input)]
    const output: Record<string, unknown>[] = []
    if (calls) {
      for (const [i, call] of calls.entries()) {
        const callId = calls.length > 1 ? `call_${runId}_${n}_${i}` : `call_${runId}_${n}`
        const item = {
          type: 'function_call',
          id: `fc_${callId}`,
          call_id: callId,
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        }
        send({ type: 'response.output_item.added', output_index: i, item })
        send({ type: 'response.output_item.done', output_index: i, item })
        output.push(item)
      }
    } else {
      const text = `FINAL reply to request #${n}`
      const parts = found.stream ? Array.from({ length: found.stream.n }, (_, i) => `${text} [${i + 1}/${found.stream?.n}] `) : [text]
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
        if (found.stream?.ms) await sleep(found.stream.ms)
      }
      const item = { ...message, content: [{ type: 'output_text', text: parts.join(''), annotations: [] }] }
      send({ type: 'response.output_item.done', output_index: 0, item })
      output.push(item)
    }
    if (res.destroyed) return
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    }
    send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output, usage } })
    ended = true
    res.end()
    events.push({ n, t: Date.now(), ev: 'end' })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
