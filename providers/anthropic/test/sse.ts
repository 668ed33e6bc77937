/** The Messages API's streaming wire format, frame by frame, as the real API sends it. */

export type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }

export interface MessageOptions {
  id?: string
  model?: string
  stopReason?: string
  inputTokens?: number
  outputTokens?: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
}

/** One SSE frame: `event: <type>\ndata: <json>\n\n`, the JSON's `type` first, as the API writes it. */
export function frame(type: string, data: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`
}

export function messageStart(options: MessageOptions = {}): string {
  return frame('message_start', {
    message: {
      id: options.id ?? 'msg_01',
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-test-1',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: options.inputTokens ?? 25,
        cache_creation_input_tokens: options.cacheWriteTokens ?? 0,
        cache_read_input_tokens: options.cacheReadTokens ?? 0,
        output_tokens: 1,
      },
    },
  })
}

/** The frames of one content block: start, its deltas (text in two pieces; tool input as `""` then two JSON fragments), stop. */
export function blockFrames(index: number, block: Block): string[] {
  if (block.type === 'text') {
    const half = Math.ceil(block.text.length / 2)
    return [
      frame('content_block_start', { index, content_block: { type: 'text', text: '' } }),
      frame('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(0, half) } }),
      frame('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(half) } }),
      frame('content_block_stop', { index }),
    ]
  }
  const json = JSON.stringify(block.input)
  const cut = Math.ceil(json.length / 2)
  return [
    frame('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }),
    frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
    frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, cut) } }),
    frame('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(cut) } }),
    frame('content_block_stop', { index }),
  ]
}

export function messageEnd(options: MessageOptions = {}): string[] {
  return [
    frame('message_delta', {
      delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null },
      usage: { output_tokens: options.outputTokens ?? 12 },
    }),
    frame('message_stop'),
  ]
}

/** A whole streamed message. The stop reason defaults to `tool_use` when a block is a tool call. */
export function message(blocks: Block[], options: MessageOptions = {}): string[] {
  const stopReason = options.stopReason ?? (blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn')
  return [
    messageStart(options),
    frame('ping'),
    ...blocks.flatMap((block, index) => blockFrames(index, block)),
    ...messageEnd({ ...options, stopReason }),
  ]
}

export const text = (value: string): Block => ({ type: 'text', text: value })
export const toolUse = (id: string, name: string, input: Record<string, unknown>): Block => ({ type: 'tool_use', id, name, input })
