/**
 * A small fake OpenAI Responses API on 127.0.0.1, so that the real Codex runs offline. It streams its replies as
 * server-sent events, the way the real API does (response.created, output items, response.completed):
 *
 * - the first request of a turn (what it adds since the model last spoke holds no `function_call_output`) gets one
 *   `function_call` of `shell`, the kernel's shell tool as Codex offers it (a dynamic tool), running the first
 *   `backquoted` command of the last user text;
 * - every later request of the turn gets a final text that quotes the last user text it saw.
 *
 * Requests other than POST …/responses (Codex asking for the provider's models, say) get an empty list.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One item of a request's `input`, as far as the fake reads it. */
export interface InputItem {
  type?: string
  role?: string
  content?: string | { type: string; text?: string }[]
  name?: string
  call_id?: string
  arguments?: string
  output?: unknown
}

/** One POST …/responses and what the fake model answered. */
export interface ModelRequest {
  /** The server's request number: every HTTP request counts. */
  n: number
  /** Arrival time, ms since the epoch. */
  at: number
  model: string | undefined
  /** The names of the function tools offered (other tools by their type). */
  tools: string[]
  input: InputItem[]
  reply: { kind: 'function_call'; callId: string; name: string; arguments: { command: string } } | { kind: 'text'; text: string }
}

export interface FakeModel {
  /** `http://127.0.0.1:<port>/v1`, for the provider's base URL. */
  url: string
  requests: ModelRequest[]
  close(): Promise<void>
}

/** The context Codex adds as user messages (its environment, a project's AGENTS.md): not what a person wrote. */
const CODEX_CONTEXT = /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/

export function itemText(item: InputItem): string {
  const content = item.content
  if (typeof content === 'string') return content
  return (content ?? []).map((part) => part.text ?? '').join('')
}

/** The text of a `function_call_output`, whether Codex sent it as a string or as content items. */
export function outputText(item: InputItem): string {
  if (typeof item.output === 'string') return item.output
  if (Array.isArray(item.output)) return (item.output as { text?: string }[]).map((part) => part.text ?? '').join('\n')
  return JSON.stringify(item.output)
}

/** A user message a person wrote (a prompt or a steer), as opposed to Codex's own context. */
export const isUserText = (item: InputItem): boolean =>
  item.type === 'message' && item.role === 'user' && itemText(item).trim() !== '' && !CODEX_CONTEXT.test(itemText(item))

/** The last user text in the input. */
export function lastUserText(input: readonly InputItem[]): string {
  const item = input.findLast(isUserText)
  return item === undefined ? '' : itemText(item).trim()
}

/** The input after the model last spoke (its last function call or assistant message): what the request adds. */
export function newInput(input: readonly InputItem[]): InputItem[] {
  const last = input.findLastIndex((item) => item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant'))
  return input.slice(last + 1)
}

export async function startFakeModel(onRequest: (request: ModelRequest) => void = () => {}): Promise<FakeModel> {
  const requests: ModelRequest[] = []
  let seq = 0

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const n = ++seq
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (!(req.method === 'POST' && path.endsWith('/responses'))) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [], models: [] }))
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      model?: string
      input?: InputItem[]
      tools?: { type?: string; name?: string }[]
    }
    const input = body.input ?? []
    const tools = (body.tools ?? []).map((tool) => tool.name ?? tool.type ?? '?')
    const firstOfTurn = !newInput(input).some((item) => item.type === 'function_call_output')
    const command = /`([^`]+)`/.exec(lastUserText(input))?.[1]
    const reply: ModelRequest['reply'] =
      firstOfTurn && command !== undefined && tools.includes('shell')
        ? { kind: 'function_call', callId: `call_fake_${n}`, name: 'shell', arguments: { command } }
        : { kind: 'text', text: `Done. The last thing you told me was: "${lastUserText(input)}"` }
    const request: ModelRequest = { n, at: Date.now(), model: body.model, tools, input, reply }
    requests.push(request)
    onRequest(request)

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': `req_fake_${n}` })
    const send = (event: Record<string, unknown>) => res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    const id = `resp_fake_${n}`
    send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } })
    let item: Record<string, unknown>
    if (reply.kind === 'function_call') {
      item = {
        type: 'function_call',
        id: `fc_fake_${n}`,
        call_id: reply.callId,
        name: reply.name,
        arguments: JSON.stringify(reply.arguments),
        status: 'completed',
      }
      send({ type: 'response.output_item.added', output_index: 0, item })
    } else {
      const message = { type: 'message', role: 'assistant', id: `msg_fake_${n}`, status: 'in_progress', content: [] }
      send({ type: 'response.output_item.added', output_index: 0, item: message })
      send({
        type: 'response.content_part.added',
        output_index: 0,
        item_id: message.id,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      })
      send({ type: 'response.output_text.delta', output_index: 0, item_id: message.id, content_index: 0, delta: reply.text })
      item = { ...message, status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }
    }
    send({ type: 'response.output_item.done', output_index: 0, item })
    const usage = {
      input_tokens: 100 + n,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 112 + n,
    }
    send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output: [item], usage } })
    res.end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'server_error', message: `fake model: ${String(error)}` } }))
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
