import type { Message, ModelProvider, ModelRequest, ModelResponse } from '@harness-kernel/kernel'

export interface CallOptions {
  signal?: AbortSignal
  deltas?: string[]
}

/** One `generate()` as the kernel makes it (attempt 1 of step 1). */
export function generate(provider: ModelProvider, request: Partial<ModelRequest>, options: CallOptions = {}): Promise<ModelResponse> {
  const deltas = options.deltas
  return provider.generate(
    {
      messages: request.messages ?? [user('hi')],
      tools: request.tools ?? [],
      ...(request.system === undefined ? {} : { system: request.system }),
    },
    {
      signal: options.signal ?? new AbortController().signal,
      attempt: 1,
      sessionId: 'session-1',
      turnId: 'turn-1',
      step: 1,
      ...(deltas ? { onTextDelta: (text: string) => deltas.push(text) } : {}),
    },
  )
}

export const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } })
export const developer = (text: string): Message => ({
  role: 'developer',
  content: [{ type: 'text', text }],
  source: { kind: 'plugin', plugin: 'test' },
  meta: { never: 'sent' },
})
export const assistant = (content: Message['content']): Message => ({ role: 'assistant', content, source: { kind: 'model' } })
export const toolResult = (callId: string, output: string, isError = false): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', callId, output, isError }],
  source: { kind: 'tool' },
})

export const READ_FILE_SPEC = {
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  },
}
