/**
 * A fake Anthropic Messages API (SSE) on 127.0.0.1 for driving the real Claude Code offline.
 * Behaviour follows shared/real-clients/driver-probe/fake-anthropic.mjs:
 *
 * - A request that offers at least one tool is a "main loop" request; one without tools gets `side-reply #N`.
 * - Directives in the text of user messages (`<system-reminder>` blocks stripped):
 *   `[[tool:NAME:JSON]]` (one tool_use), `[[tools:[{"name":…,"input":{…}},…]]]` (several tool_use blocks in one
 *   assistant message), `[[stream:N:MS]]` (the text in N deltas, MS apart, before any tool_use) and `[[slow:MS]]`
 *   (hold each main reply MS after message_start).
 * - k = the number of assistant messages in the history that hold a tool_use; the reply is tool directive k+1,
 *   else the text `FINAL reply to request #N`.
 * - Tool ids are `toolu_<run id>_<n>` (`toolu_<run id>_<n>_<i>` for several), unique across server instances.
 * - Other paths answer 200 `{}` (`count_tokens`: `{"input_tokens":1234}`).
 *
 * `N`/`n` counts every HTTP request the server received, as the .mjs does; `requests` holds only POST /v1/messages.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ContentBlock {
  type: string
  text?: string
  id?: string
  name?: string
  input?: unknown
  tool_use_id?: string
  content?: string | ContentBlock[]
  is_error?: boolean
  [key: string]: unknown
}

export interface MessageParam {
  role: string
  content: string | ContentBlock[]
}

export interface MessagesBody {
  model?: string
  messages?: MessageParam[]
  tools?: { name: string; [key: string]: unknown }[]
  system?: unknown
  [key: string]: unknown
}

/** One POST /v1/messages as the server received it. */
export interface RecordedRequest {
  /** The server's request number (counts every HTTP request, as `#N` in the replies). */
  n: number
  /** Arrival time (ms since the epoch). */
  t: number
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: MessagesBody
}

export type ServerEvent =
  | { n: number; t: number; ev: 'start'; main: boolean; reply: string; nmsgs: number; toolUseIds: string[] }
  | { n: number; t: number; ev: 'end' }
  | { n: number; t: number; ev: 'aborted' }

export interface ToolCall {
  name: string
  input: unknown
}

/** A scripted reply: text, tool_use blocks, or text then tool_use blocks. */
export interface Reply {
  text?: string
  tools?: ToolCall[]
  /** Stream the text in `n` deltas, `ms` apart (as `[[stream:N:MS]]`). */
  stream?: { n: number; ms: number }
  /** Hold the reply this long after message_start (as `[[slow:MS]]`). */
  slow?: number
}

export interface ReplyContext {
  /** The request offers at least one tool. */
  main: boolean
  /** Assistant messages in the history that hold a tool_use. */
  k: number
}

export interface FakeAnthropicOptions {
  /** Scripts a reply directly; `undefined` falls back to the directives. Called for every POST /v1/messages. */
  reply?: (request: RecordedRequest, context: ReplyContext) => Reply | undefined
}

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string
  port: number
  /** Every POST /v1/messages, in arrival order. */
  requests: RecordedRequest[]
  /** start / end / aborted per POST /v1/messages, in order. */
  events: ServerEvent[]
  close(): Promise<void>
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g
const DIRECTIVE = /\[\[(slow|tool|tools|stream):([\s\S]*?)\]\](?!\])/g

let instances = 0

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function contentText(content: MessageParam['content'] | undefined): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter((b) => b?.type === 'text')
    .map((b) => b.text ?? '')
    .join('\n')
}

function stripReminders(text: string): string {
  return text.replace(REMINDER, '')
}

interface ToolDirective {
  calls: ToolCall[]
  multi: boolean
}

interface Directives {
  tools: ToolDirective[]
  slow: number
  stream: { n: number; ms: number } | undefined
}

function directives(messages: MessageParam[]): Directives {
  const d: Directives = { tools: [], slow: 0, stream: undefined }
  for (const m of messages) {
    if (m.role !== 'user') continue
    const text = stripReminders(contentText(m.content))
    for (const [, kind, arg = ''] of text.matchAll(DIRECTIVE)) {
      if (kind === 'slow') d.slow = Number(arg)
      else if (kind === 'stream') {
        const [n = 0, ms = 0] = arg.split(':').map(Number)
        d.stream = { n, ms }
      } else if (kind === 'tools') d.tools.push({ calls: JSON.parse(arg) as ToolCall[], multi: true })
      else {
        const i = arg.indexOf(':')
        d.tools.push({ calls: [{ name: arg.slice(0, i), input: JSON.parse(arg.slice(i + 1)) }], multi: false })
      }
    }
  }
  return d
}

function toolUseTurns(messages: MessageParam[]): number {
  return messages.filter((m) => m.role === 'assistant' && Array.isArray(m.content) && m.content.some((b) => b?.type === 'tool_use')).length
}

/** The body's user messages' text: string content and text blocks, in order; `<system-reminder>`s stripped, blanks dropped. */
export function userTexts(request: RecordedRequest, options: { keepReminders?: boolean } = {}): string[] {
  const texts: string[] = []
  for (const m of request.body.messages ?? []) {
    if (m.role !== 'user') continue
    const parts = typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b?.type === 'text').map((b) => b.text ?? '')
    for (const part of parts) {
      const text = options.keepReminders ? part : stripReminders(part)
      if (text.trim() !== '') texts.push(text)
    }
  }
  return texts
}

/** The last message with role `user` in the request's history. */
export function lastUserMessage(request: RecordedRequest): MessageParam | undefined {
  return (request.body.messages ?? []).findLast((m) => m.role === 'user')
}

/** The main-loop requests (those that offer tools), in order. */
export function mainRequests(server: { requests: RecordedRequest[] }): RecordedRequest[] {
  return server.requests.filter((request) => (request.body.tools ?? []).length > 0)
}

/** The blocks of the request's last user message, as `tool_result:<text>` / `text:<text>`. */
export function lastUserBlocks(request: RecordedRequest): string[] {
  const content = lastUserMessage(request)?.content ?? []
  const blocks: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content
  return blocks.map((block) => {
    if (block.type !== 'tool_result') return `${block.type}:${block.text ?? ''}`
    const inner = typeof block.content === 'string' ? block.content : (block.content ?? []).map((part) => part.text ?? '').join('')
    return `tool_result:${inner}`
  })
}

/** The names of the tools the request offers, in order. */
export function toolsOf(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((t) => t.name)
}

export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const runId = `${Date.now().toString(36)}${(instances++).toString(36)}${randomBytes(3).toString('hex')}`
  const requests: RecordedRequest[] = []
  const events: ServerEvent[] = []
  let seq = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const n = ++seq
    const t = Date.now()
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!(req.method === 'POST' && path === '/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(path.endsWith('count_tokens') ? '{"input_tokens":1234}' : '{}')
      return
    }
    const body = (raw ? JSON.parse(raw) : {}) as MessagesBody
    const request: RecordedRequest = { n, t, method: req.method, url: req.url ?? '', headers: req.headers, body }
    requests.push(request)

    const messages = body.messages ?? []
    const main = Array.isArray(body.tools) && body.tools.length > 0
    const k = toolUseTurns(messages)
    const scripted = options.reply?.(request, { main, k })
    let text: string | undefined
    let calls: ToolCall[] = []
    let multi = false
    let slow = 0
    let stream: { n: number; ms: number } | undefined
    if (scripted) {
      text = scripted.text
      calls = scripted.tools ?? []
      multi = calls.length > 1
      slow = scripted.slow ?? 0
      stream = scripted.stream
      if (text === undefined && calls.length === 0) text = main ? `FINAL reply to request #${n}` : `side-reply #${n}`
    } else if (main) {
      const d = directives(messages)
      slow = d.slow
      stream = d.stream
      const next = d.tools[k]
      if (next) {
        calls = next.calls
        multi = next.multi
      } else text = `FINAL reply to request #${n}`
    } else text = `side-reply #${n}`

    const blocks = calls.map((call, i) => ({ id: multi ? `toolu_${runId}_${n}_${i}` : `toolu_${runId}_${n}`, ...call }))
    const isTool = blocks.length > 0
    const summary = isTool ? blocks.map((b) => `${b.name} ${JSON.stringify(b.input)}`).join(' + ') : (text ?? '')
    events.push({ n, t, ev: 'start', main, reply: summary, nmsgs: messages.length, toolUseIds: blocks.map((b) => b.id) })

    let ended = false
    res.on('close', () => {
      if (!ended) events.push({ n, t: Date.now(), ev: 'aborted' })
    })
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}` })
    const ev = (type: string, data: Record<string, unknown>) => {
      if (!res.destroyed) res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    }
    const usage = { input_tokens: 100 + n, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
    ev('message_start', {
      message: {
        id: `msg_fake_${n}`,
        type: 'message',
        role: 'assistant',
        model: body.model ?? 'claude-fake',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    })
    ev('ping', {})
    if (slow) await sleep(slow)
    if (res.destroyed) return
    let index = 0
    if (stream || text !== undefined) {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } })
      if (stream) {
        for (let i = 0; i < stream.n; i++) {
          if (res.destroyed) return
          ev('content_block_delta', {
            index,
            delta: { type: 'text_delta', text: `${isTool ? (text ?? 'Preamble') : text} chunk ${i + 1}/${stream.n}. ` },
          })
          await sleep(stream.ms)
        }
      } else ev('content_block_delta', { index, delta: { type: 'text_delta', text } })
      ev('content_block_stop', { index })
      index++
    }
    for (const b of blocks) {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } })
      ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } })
      ev('content_block_stop', { index })
      index++
    }
    ev('message_delta', { delta: { stop_reason: isTool ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } })
    ev('message_stop', {})
    if (res.destroyed) return
    ended = true
    res.end()
    events.push({ n, t: Date.now(), ev: 'end' })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake anthropic: ${String(error)}` } }))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    events,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
