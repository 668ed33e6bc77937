import type {
  ContentBlockParam,
  RawContentBlockDelta,
  RawContentBlockStartEvent,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages'
import { type ContentBlock, ModelError, type ModelUsage } from '@harness-kernel/kernel'

/** One streamed response, assembled. */
export interface StreamedMessage {
  /** Text and tool_call blocks in the order the model produced them (what the kernel records). */
  content: ContentBlock[]
  /** The model's own blocks, thinking included, in order (kept to replay thinking; see ThinkingReplay). */
  raw: ContentBlockParam[]
  stopReason: string | undefined
  usage: ModelUsage | undefined
  /** The message's id (`msg_…`) from `message_start`. */
  id: string | undefined
  /** The model that answered, from `message_start`. */
  model: string | undefined
}

type Builder =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; json: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }

/**
 * Reads the Messages API's stream events (`message_start`, `content_block_start|delta|stop`, `message_delta`,
 * `message_stop`) into one response: text deltas go to `onTextDelta` as they arrive, `input_json_delta` fragments are
 * joined per block and parsed at the end. A stream that ends before `message_stop` is a retryable ModelError.
 */
export async function readMessageStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  onTextDelta?: (text: string) => void,
): Promise<StreamedMessage> {
  const blocks = new Map<number, Builder>()
  const usage = new UsageTally()
  let stopReason: string | undefined
  let id: string | undefined
  let model: string | undefined
  let stopped = false
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        id = event.message.id
        model = event.message.model || undefined
        usage.update(event.message.usage)
        break
      case 'content_block_start': {
        const builder = startBlock(event.content_block)
        if (builder) blocks.set(event.index, builder)
        if (builder?.type === 'text' && builder.text !== '') onTextDelta?.(builder.text)
        break
      }
      case 'content_block_delta': {
        const builder = blocks.get(event.index)
        if (builder) applyDelta(builder, event.delta, onTextDelta)
        break
      }
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason
        usage.update(event.usage)
        break
      case 'message_stop':
        stopped = true
        break
    }
  }
  if (!stopped) throw new ModelError('the stream ended before the message completed', { retryable: true })
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, builder]) => builder)
  const content: ContentBlock[] = []
  const raw: ContentBlockParam[] = []
  for (const builder of ordered) {
    switch (builder.type) {
      case 'text':
        if (builder.text === '') break
        content.push({ type: 'text', text: builder.text })
        raw.push({ type: 'text', text: builder.text })
        break
      case 'tool_use': {
        const input = toolInput(builder, stopReason)
        content.push({ type: 'tool_call', id: builder.id, name: builder.name, input })
        raw.push({ type: 'tool_use', id: builder.id, name: builder.name, input: structuredClone(input) })
        break
      }
      case 'thinking':
        raw.push({ type: 'thinking', thinking: builder.thinking, signature: builder.signature })
        break
      case 'redacted_thinking':
        raw.push({ type: 'redacted_thinking', data: builder.data })
        break
    }
  }
  return { content, raw, stopReason, usage: usage.result(), id, model }
}

/** Blocks of other types (server tools, which this provider never offers) are not kept. */
function startBlock(block: RawContentBlockStartEvent['content_block']): Builder | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text }
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, json: '', input: block.input }
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature }
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data }
    default:
      return undefined
  }
}

function applyDelta(builder: Builder, delta: RawContentBlockDelta, onTextDelta: ((text: string) => void) | undefined): void {
  if (delta.type === 'text_delta' && builder.type === 'text') {
    builder.text += delta.text
    if (delta.text !== '') onTextDelta?.(delta.text)
  } else if (delta.type === 'input_json_delta' && builder.type === 'tool_use') {
    builder.json += delta.partial_json
  } else if (delta.type === 'thinking_delta' && builder.type === 'thinking') {
    builder.thinking += delta.thinking
  } else if (delta.type === 'signature_delta' && builder.type === 'thinking') {
    builder.signature += delta.signature
  }
}

function toolInput(builder: Extract<Builder, { type: 'tool_use' }>, stopReason: string | undefined): unknown {
  if (builder.json.trim() === '') return builder.input ?? {}
  try {
    return JSON.parse(builder.json)
  } catch {
    const why =
      stopReason === 'max_tokens' ? 'the response reached max_tokens in the middle of it; raise maxTokens' : 'its input is not valid JSON'
    throw new ModelError(`the model's call to ${builder.name} (${builder.id}) is incomplete: ${why}`, { retryable: false })
  }
}

type UsageCounts = Partial<
  Record<'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'output_tokens', number | null>
>

/**
 * `inputTokens` counts every input token, cached ones included (`input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens`), so it is the size of the context; the cache's parts are kept as such; `outputTokens` is
 * the final count from `message_delta` (thinking included: the API counts it there).
 */
class UsageTally {
  #input: number | undefined
  #cacheWrite = 0
  #cacheRead = 0
  #output: number | undefined

  /** `message_start` carries the first counts; `message_delta` the running ones (null: unchanged). */
  update(usage: UsageCounts | undefined): void {
    if (!usage) return
    this.#input = usage.input_tokens ?? this.#input
    this.#cacheWrite = usage.cache_creation_input_tokens ?? this.#cacheWrite
    this.#cacheRead = usage.cache_read_input_tokens ?? this.#cacheRead
    this.#output = usage.output_tokens ?? this.#output
  }

  result(): ModelUsage | undefined {
    if (this.#input === undefined && this.#output === undefined) return undefined
    const usage: ModelUsage = {}
    if (this.#input !== undefined) usage.inputTokens = this.#input + this.#cacheWrite + this.#cacheRead
    if (this.#output !== undefined) usage.outputTokens = this.#output
    if (this.#cacheRead > 0) usage.cacheReadInputTokens = this.#cacheRead
    if (this.#cacheWrite > 0) usage.cacheCreationInputTokens = this.#cacheWrite
    return usage
  }
}
