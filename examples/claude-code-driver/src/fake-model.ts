/**
 * A small fake Anthropic Messages API on 127.0.0.1, so that the real Claude Code runs offline. It streams its replies
 * as server-sent events, the way the real API does (message_start, ping, content blocks, message_delta, message_stop):
 *
 * - a request that offers no tools (one of Claude Code's side requests) gets a short text;
 * - the first request of a turn (its history ends with the user's prompt, not with tool results) gets one `tool_use` of
 *   `mcp__host__shell`, the kernel's shell tool as Claude Code sees it, running the first `backquoted` command of the
 *   prompt;
 * - every later request of the turn gets a final text that quotes the last user text it saw.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Block {
  type: string
  text?: string
  id?: string
  name?: string
  input?: unknown
  tool_use_id?: string
  content?: string | Block[]
  is_error?: boolean
}

export interface ApiMessage {
  role: string
  content: string | Block[]
}

/** One POST /v1/messages and what the fake model answered. */
export interface ModelRequest {
  /** The server's request number: every HTTP request counts. */
  n: number
  /** Arrival time, ms since the epoch. */
  at: number
  /** The request offered tools (Claude Code's main loop), as opposed to a side request. */
  main: boolean
  tools: string[]
  messages: ApiMessage[]
  reply: { kind: 'tool_use'; id: string; name: string; input: { command: string } } | { kind: 'text'; text: string }
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  url: string
  requests: ModelRequest[]
  close(): Promise<void>
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g

const blocksOf = (message: ApiMessage | undefined): Block[] =>
  message === undefined ? [] : typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content

/** The text of a user text block as a person wrote it: Claude Code's `<system-reminder>`s left out. */
export const userText = (block: Block): string => (block.text ?? '').replace(REMINDER, '').trim()

/** The last non-empty user text in the history. */
export function lastUserText(messages: readonly ApiMessage[]): string {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'user') continue
    const texts = blocksOf(message)
      .filter((block) => block.type === 'text')
      .map(userText)
      .filter(Boolean)
    if (texts.length > 0) return texts.at(-1)!
  }
  return ''
}

/** The blocks of the user messages after the last assistant message: what the request adds to the history. */
export function trailingUserBlocks(messages: readonly ApiMessage[]): Block[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant')
  return messages.slice(lastAssistant + 1).flatMap((message) => (message.role === 'user' ? blocksOf(message) : []))
}

export async function startFakeModel(onRequest: (request: ModelRequest) => void = () => {}): Promise<FakeModel> {
  const requests: ModelRequest[] = []
  let seq = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const n = ++seq
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!(req.method === 'POST' && path === '/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(path.endsWith('count_tokens') ? '{"input_tokens":1234}' : '{}')
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      model?: string
      messages?: ApiMessage[]
      tools?: { name: string }[]
    }
    const messages = body.messages ?? []
    const tools = (body.tools ?? []).map((tool) => tool.name)
    const main = tools.length > 0
    const firstOfTurn = !trailingUserBlocks(messages).some((block) => block.type === 'tool_result')
    const command = /`([^`]+)`/.exec(lastUserText(messages))?.[1]
    const reply: ModelRequest['reply'] =
      main && firstOfTurn && command !== undefined
        ? { kind: 'tool_use', id: `toolu_fake_${n}`, name: 'mcp__host__shell', input: { command } }
        : { kind: 'text', text: main ? `Done. The last thing you told me was: "${lastUserText(messages)}"` : `side reply #${n}` }
    const request: ModelRequest = { n, at: Date.now(), main, tools, messages, reply }
    requests.push(request)
    onRequest(request)

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}` })
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    event('message_start', {
      message: {
        id: `msg_fake_${n}`,
        type: 'message',
        role: 'assistant',
        model: body.model ?? 'claude-fake',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100 + n, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    })
    event('ping', {})
    if (reply.kind === 'tool_use') {
      event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: reply.id, name: reply.name, input: {} } })
      event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.input) } })
    } else {
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } })
    }
    event('content_block_stop', { index: 0 })
    event('message_delta', {
      delta: { stop_reason: reply.kind === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 12 },
    })
    event('message_stop', {})
    res.end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake model: ${String(error)}` } }))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
