import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'

/**
 * A fake Anthropic Messages API on 127.0.0.1 for the Claude Code driver benchmarks (`claude-code-steer`,
 * `claude-code-driver-steps`): the real Claude Code runs against it, driven through the Agent SDK or as `claude -p`. Its
 * replies stream as server-sent events the way the real API's do (the format of drivers/claude-code/test/support/
 * fake-anthropic.ts). A turn's prompt names how many tool calls the model makes, `[[calls:K]]`: the reply is a call of
 * `true` while fewer than K assistant messages since that prompt hold a tool_use, then a text. The tool is a kernel tool
 * `noop` when the request offers it (`mcp__host__noop`), else the kernel's shell (`mcp__host__shell`), else Claude Code's
 * own `Bash`; its input is `{"command":"true"}`. A request without tools (a side request) gets a text.
 */

interface Block {
  type: string
  text?: string
  content?: unknown
}

export interface ApiMessage {
  role: string
  content: string | Block[]
}

export interface FakeRequest {
  /** The server's request number (every HTTP request counts). */
  n: number
  /** Arrival, `performance.now()` ms: the bench process's clock, comparable with its own timestamps. */
  at: number
  /** Arrival, `Date.now()` ms: comparable with the timestamps in Claude Code's stream-json. */
  wall: number
  /** The request offered tools: Claude Code's main loop. */
  main: boolean
  /** The body's size, bytes. */
  bytes: number
  messages: ApiMessage[]
  reply: { kind: 'tool'; name: string } | { kind: 'text' }
}

export interface FakeMessages {
  url: string
  requests: FakeRequest[]
  close(): Promise<void>
}

const CALLS = /\[\[calls:(\d+)\]\]/

const blocksOf = (message: ApiMessage): Block[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
const hasToolResult = (message: ApiMessage) => blocksOf(message).some((block) => block.type === 'tool_result')

/** The text of the user messages of a request, in order (tool results left out). */
export const userTexts = (request: FakeRequest): string[] =>
  request.messages
    .filter((message) => message.role === 'user')
    .flatMap(blocksOf)
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')

/** The reply the script asks for: a tool call while the turn's prompt wants more, else a text. */
function plan(messages: ApiMessage[], tools: string[]): FakeRequest['reply'] {
  if (tools.length === 0) return { kind: 'text' }
  const prompt = messages.findLastIndex((message) => message.role === 'user' && !hasToolResult(message))
  const wanted =
    prompt < 0
      ? 0
      : Number(
          CALLS.exec(
            blocksOf(messages[prompt]!)
              .map((block) => block.text ?? '')
              .join('\n'),
          )?.[1] ?? 0,
        )
  const made = messages
    .slice(prompt + 1)
    .filter((message) => message.role === 'assistant' && blocksOf(message).some((block) => block.type === 'tool_use')).length
  if (made >= wanted) return { kind: 'text' }
  const name = ['mcp__host__noop', 'mcp__host__shell'].find((tool) => tools.includes(tool)) ?? 'Bash'
  return { kind: 'tool', name }
}

export async function startFakeMessages(): Promise<FakeMessages> {
  const requests: FakeRequest[] = []
  let seq = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const at = performance.now()
    const wall = Date.now()
    const n = ++seq
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!(req.method === 'POST' && path === '/v1/messages')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(path.endsWith('count_tokens') ? '{"input_tokens":1234}' : '{}')
      return
    }
    const raw = Buffer.concat(chunks)
    const body = JSON.parse(raw.toString('utf8') || '{}') as { model?: string; messages?: ApiMessage[]; tools?: { name: string }[] }
    const messages = body.messages ?? []
    const tools = (body.tools ?? []).map((tool) => tool.name)
    const reply = plan(messages, tools)
    requests.push({ n, at, wall, main: tools.length > 0, bytes: raw.length, messages, reply })

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_fake_${n}` })
    let out = ''
    const event = (type: string, data: Record<string, unknown>) => {
      out += `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
    }
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
    if (reply.kind === 'tool') {
      event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_bench_${n}`, name: reply.name, input: {} } })
      event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command: 'true' }) } })
    } else {
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: `done (request #${n})` } })
    }
    event('content_block_stop', { index: 0 })
    event('message_delta', {
      delta: { stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 12 },
    })
    event('message_stop', {})
    res.end(out)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `fake messages: ${String(error)}` } }))
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
