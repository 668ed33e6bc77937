/**
 * Chat Completions streams as OpenAI sends them: `data: {"object":"chat.completion.chunk",…}` frames, a chunk with
 * `finish_reason`, then (with `stream_options.include_usage`) a usage chunk with empty `choices`, then `data: [DONE]`.
 */

export interface ChatCallSpec {
  id: string
  name: string
  /** Argument pieces, streamed in order. */
  chunks: string[]
}

export interface ChatUsage {
  prompt_tokens: number
  completion_tokens: number
  /** Of `prompt_tokens`. */
  cached_tokens?: number
  /** Of `completion_tokens`. */
  reasoning_tokens?: number
}

export const CHAT_USAGE: ChatUsage = { prompt_tokens: 31, completion_tokens: 9 }

export function chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  return data({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'gpt-test',
    service_tier: 'default',
    system_fingerprint: 'fp_1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  })
}

export function usageChunk(usage: ChatUsage = CHAT_USAGE): string {
  return data({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'gpt-test',
    service_tier: 'default',
    system_fingerprint: 'fp_1',
    choices: [],
    usage: {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: usage.reasoning_tokens ?? 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  })
}

export const DONE = 'data: [DONE]\n\n'

export function data(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`
}

/** A text answer: role chunk, text pieces, `stop`, usage, `[DONE]`. */
export function chatText(pieces: string[], usage: ChatUsage = CHAT_USAGE): string[] {
  return [
    chunk({ role: 'assistant', content: '', refusal: null }),
    ...pieces.map((content) => chunk({ content })),
    chunk({}, 'stop'),
    usageChunk(usage),
    DONE,
  ]
}

/** Tool calls (optionally after some text): each call's first delta carries id and name, then argument pieces. */
export function chatCalls(calls: ChatCallSpec[], options: { text?: string[]; interleave?: boolean } = {}): string[] {
  const first = (call: ChatCallSpec, index: number) =>
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })
  const piece = (index: number, args: string) => chunk({ tool_calls: [{ index, function: { arguments: args } }] })
  const frames = [chunk({ role: 'assistant', content: options.text ? '' : null, refusal: null })]
  for (const content of options.text ?? []) frames.push(chunk({ content }))
  if (options.interleave) {
    for (const [index, call] of calls.entries()) frames.push(first(call, index))
    const longest = Math.max(...calls.map((call) => call.chunks.length))
    for (let at = 0; at < longest; at++) {
      for (const [index, call] of calls.entries()) {
        const args = call.chunks[at]
        if (args !== undefined) frames.push(piece(index, args))
      }
    }
  } else {
    for (const [index, call] of calls.entries()) {
      frames.push(first(call, index))
      for (const args of call.chunks) frames.push(piece(index, args))
    }
  }
  frames.push(chunk({}, 'tool_calls'), usageChunk(), DONE)
  return frames
}
