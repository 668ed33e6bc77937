/** A client that shows what a fake server wrote: the raw text, its server-sent events, its headers. */
export interface Answer {
  status: number
  headers: Headers
  text: string
  /** The `event:`/`data:` frames of a stream, data parsed when it is JSON. */
  events: { event: string | undefined; data: unknown }[]
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, events: parseEvents(text) }
}

export function parseEvents(text: string): Answer['events'] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event = /^event: (.*)$/m.exec(frame)?.[1]
      const data = /^data: (.*)$/m.exec(frame)?.[1] ?? ''
      try {
        return { event, data: JSON.parse(data) }
      } catch {
        return { event, data }
      }
    })
}

/** A Messages request body: one user text, optional tools, streamed unless told otherwise. */
export function messagesBody(text: string, options: { tools?: string[]; stream?: boolean; history?: unknown[] } = {}) {
  return {
    model: 'claude-test',
    max_tokens: 100,
    stream: options.stream ?? true,
    messages: [...(options.history ?? []), { role: 'user', content: [{ type: 'text', text }] }],
    ...(options.tools ? { tools: options.tools.map((name) => ({ name, input_schema: { type: 'object' } })) } : {}),
  }
}
