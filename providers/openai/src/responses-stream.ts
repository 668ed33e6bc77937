import type { ModelResponse, ModelUsage } from '@harness-kernel/kernel'
import type { Response, ResponseOutputItem, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses'
import { streamCut, streamFailure } from './model-errors.js'
import { contentOf, type OutputSlot } from './output-content.js'

/**
 * Assembles a streamed Responses answer: output items by `output_index` (texts, refusals and function calls, which
 * may interleave), text deltas passed on as they arrive, the final state from `response.completed` or
 * `response.incomplete`. `response.failed` and `error` events throw.
 */
export class ResponsesStreamReader {
  readonly #slots = new Map<number, OutputSlot>()
  readonly #indexOfItem = new Map<string, number>()
  readonly #label: string
  readonly #onTextDelta: ((text: string) => void) | undefined
  #final: Response | undefined

  constructor(label: string, onTextDelta: ((text: string) => void) | undefined) {
    this.#label = label
    this.#onTextDelta = onTextDelta
  }

  push(event: ResponseStreamEvent): void {
    switch (event.type) {
      case 'response.output_item.added':
      case 'response.output_item.done':
        this.#item(event.output_index, event.item)
        return
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.#text(event.output_index, event.delta)
        return
      case 'response.function_call_arguments.delta': {
        const slot = this.#slots.get(this.#indexOf(event.item_id, event.output_index))
        if (slot?.kind === 'call') slot.arguments += event.delta
        return
      }
      case 'response.function_call_arguments.done': {
        const slot = this.#slots.get(this.#indexOf(event.item_id, event.output_index))
        if (slot?.kind === 'call') slot.arguments = event.arguments
        return
      }
      case 'response.completed':
      case 'response.incomplete':
        this.#final = event.response
        return
      case 'response.failed': {
        const error = event.response.error
        throw streamFailure(this.#label, error?.code ?? null, error?.message ?? `the response failed (${event.response.status})`)
      }
      case 'error':
        throw streamFailure(this.#label, event.code, event.message)
      default:
        return
    }
  }

  /** The answer, once a terminal event arrived; a stream that ended without one was cut (retryable). */
  finish(): ModelResponse {
    const final = this.#final
    if (!final) throw streamCut(this.#label)
    if (this.#slots.size === 0) for (const [index, item] of (final.output ?? []).entries()) this.#item(index, item)
    const ordered = [...this.#slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot)
    const content = contentOf(ordered, this.#label)
    const hasCalls = content.some((block) => block.type === 'tool_call')
    const stopReason = final.status === 'incomplete' ? (final.incomplete_details?.reason ?? 'incomplete') : hasCalls ? 'tool_calls' : 'stop'
    const usage = final.usage ? responsesUsage(final.usage) : undefined
    return {
      content,
      stopReason,
      ...(usage ? { usage } : {}),
      ...(final.id ? { id: final.id } : {}),
      ...(final.model ? { model: final.model } : {}),
    }
  }

  #indexOf(itemId: string, outputIndex: number): number {
    return this.#indexOfItem.get(itemId) ?? outputIndex
  }

  #text(index: number, delta: string): void {
    let slot = this.#slots.get(index)
    if (!slot) {
      slot = { kind: 'text', text: '' }
      this.#slots.set(index, slot)
    }
    if (slot.kind !== 'text' || delta === '') return
    slot.text += delta
    this.#onTextDelta?.(delta)
  }

  /** An item as announced (`added`) or final (`done`, authoritative): messages and function calls; others are skipped. */
  #item(index: number, item: ResponseOutputItem): void {
    if (item.id) this.#indexOfItem.set(item.id, index)
    if (item.type === 'message') {
      const parts = item.content.map((part) => (part.type === 'output_text' ? part.text : part.refusal))
      const existing = this.#slots.get(index)
      if (existing?.kind === 'text' && parts.length === 0) return
      this.#slots.set(index, { kind: 'text', text: parts.join('') || (existing?.kind === 'text' ? existing.text : '') })
    } else if (item.type === 'function_call') {
      const existing = this.#slots.get(index)
      const streamed = existing?.kind === 'call' ? existing.arguments : ''
      const id = item.call_id || item.id || `call_${index}`
      this.#slots.set(index, { kind: 'call', id, name: item.name, arguments: item.arguments || streamed })
    }
  }
}

/** `input_tokens` counts cached input too (`input_tokens_details.cached_tokens` is part of it); `output_tokens`, reasoning. */
function responsesUsage(usage: ResponseUsage): ModelUsage {
  const counted: ModelUsage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens }
  const cached = usage.input_tokens_details?.cached_tokens
  const reasoning = usage.output_tokens_details?.reasoning_tokens
  if (cached) counted.cacheReadInputTokens = cached
  if (reasoning) counted.reasoningTokens = reasoning
  return counted
}
