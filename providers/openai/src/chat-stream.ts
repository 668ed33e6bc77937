import { randomUUID } from 'node:crypto'
import type { ModelResponse, ModelUsage } from '@harness-kernel/kernel'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions/completions'
import type { CompletionUsage } from 'openai/resources/completions'
import { streamCut } from './model-errors.js'
import { contentOf, type OutputSlot } from './output-content.js'

type CallSlot = Extract<OutputSlot, { kind: 'call' }>
type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]

/**
 * Assembles a streamed Chat Completions answer from its chunks: text deltas (passed on as they arrive), tool calls
 * from their `index`-keyed deltas (parallel calls may interleave), `finish_reason`, and the usage chunk that
 * `stream_options.include_usage` adds after it. A stream without a `finish_reason` was cut (retryable).
 */
export class ChatStreamReader {
  readonly #slots: OutputSlot[] = []
  readonly #calls = new Map<number, CallSlot>()
  readonly #label: string
  readonly #onTextDelta: ((text: string) => void) | undefined
  #finishReason: string | undefined
  #usage: ModelUsage | undefined
  #id: string | undefined
  #model: string | undefined

  constructor(label: string, onTextDelta: ((text: string) => void) | undefined) {
    this.#label = label
    this.#onTextDelta = onTextDelta
  }

  push(chunk: ChatCompletionChunk): void {
    if (chunk.id) this.#id ??= chunk.id
    if (chunk.model) this.#model ??= chunk.model
    if (chunk.usage) this.#usage = chatUsage(chunk.usage)
    const choice = chunk.choices?.find((candidate) => candidate.index === 0) ?? chunk.choices?.[0]
    if (!choice) return
    const delta = choice.delta ?? {}
    const text = delta.content || delta.refusal
    if (text) this.#text(text)
    for (const [position, call] of (delta.tool_calls ?? []).entries()) this.#call(call, position)
    if (choice.finish_reason) this.#finishReason = choice.finish_reason
  }

  finish(): ModelResponse {
    if (this.#finishReason === undefined) throw streamCut(this.#label)
    for (const call of this.#calls.values()) call.id ||= `call_${randomUUID()}`
    const content = contentOf(this.#slots, this.#label)
    return {
      content,
      stopReason: this.#finishReason,
      ...(this.#usage ? { usage: this.#usage } : {}),
      ...(this.#id ? { id: this.#id } : {}),
      ...(this.#model ? { model: this.#model } : {}),
    }
  }

  #text(delta: string): void {
    const last = this.#slots.at(-1)
    if (last?.kind === 'text') last.text += delta
    else this.#slots.push({ kind: 'text', text: delta })
    this.#onTextDelta?.(delta)
  }

  #call(delta: ToolCallDelta, position: number): void {
    const index = this.#indexOf(delta, position)
    let slot = this.#calls.get(index)
    if (!slot) {
      slot = { kind: 'call', id: '', name: '', arguments: '' }
      this.#calls.set(index, slot)
      this.#slots.push(slot)
    }
    // Some servers repeat the id and name on every delta; the first ones stand.
    if (delta.id && !slot.id) slot.id = delta.id
    if (delta.function?.name && !slot.name) slot.name = delta.function.name
    if (delta.function?.arguments) slot.arguments += delta.function.arguments
  }

  /** `index` as OpenAI sends it; servers that omit it send each call whole, told apart by id or position. */
  #indexOf(delta: ToolCallDelta, position: number): number {
    if (typeof delta.index === 'number') return delta.index
    for (const [index, slot] of this.#calls) if (delta.id && slot.id === delta.id) return index
    return delta.id ? this.#calls.size : position
  }
}

/** `prompt_tokens` counts cached input too (`prompt_tokens_details.cached_tokens` is part of it); `completion_tokens`, reasoning. */
function chatUsage(usage: CompletionUsage): ModelUsage {
  const counted: ModelUsage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens }
  const cached = usage.prompt_tokens_details?.cached_tokens
  const reasoning = usage.completion_tokens_details?.reasoning_tokens
  if (cached) counted.cacheReadInputTokens = cached
  if (reasoning) counted.reasoningTokens = reasoning
  return counted
}
