import type { ModelCallOptions, ModelCapabilities, ModelProvider, ModelRequest, ModelResponse } from '@harness-kernel/kernel'
import type OpenAI from 'openai'
import { chatRequest } from './chat-request.js'
import { ChatStreamReader } from './chat-stream.js'
import { type Endpoint, resolveEndpoint } from './endpoint.js'
import { IdleWatch } from './idle-watch.js'
import { type ErrorContext, missingKey, streamStalled, toModelError } from './model-errors.js'
import { createClient } from './openai-client.js'
import type { OpenAIApi, OpenAIModelOptions } from './options.js'
import { responsesRequest } from './responses-request.js'
import { ResponsesStreamReader } from './responses-stream.js'

const DEFAULT_STREAM_IDLE_MS = 300_000

/**
 * A `ModelProvider` over the official `openai` SDK: one streamed HTTP request per `generate()` call (the SDK's own
 * retries are off; the kernel retries a step, honouring `retry-after`), aborted with the call's signal.
 */
export class OpenAIProvider implements ModelProvider {
  readonly id: string
  /** The OpenAI API's, whoever serves it (a compatible server speaks the same API). */
  readonly providerName = 'openai'
  readonly capabilities: ModelCapabilities
  readonly api: OpenAIApi
  readonly endpoint: Endpoint
  readonly #options: OpenAIModelOptions
  readonly #errors: ErrorContext
  readonly #idleMs: number
  #client: OpenAI | undefined

  constructor(options: OpenAIModelOptions) {
    if (typeof options?.model !== 'string' || options.model.trim() === '') throw new TypeError('openaiModel: `model` is required')
    if (options.api !== undefined && options.api !== 'responses' && options.api !== 'chat') {
      throw new TypeError(`openaiModel: api must be 'responses' or 'chat', not ${JSON.stringify(options.api)}`)
    }
    this.#options = options
    this.id = options.id ?? options.model
    this.api = options.api ?? 'responses'
    // Responses: developer items are sent where they stand. Chat: one may move past the tool results it precedes.
    this.capabilities = { systemMessagesInConversation: this.api === 'responses' }
    this.endpoint = resolveEndpoint(options, options.env ?? process.env)
    this.#errors = {
      endpoint: this.endpoint,
      model: options.model,
      api: this.api,
      timeoutMs: options.timeoutMs,
      apiKeySource: options.apiKeySource,
    }
    this.#idleMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS
  }

  async generate(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const { signal } = options
    signal.throwIfAborted()
    const client = this.#sdk()
    const idle = new IdleWatch(this.#idleMs)
    const requestOptions = { signal: AbortSignal.any([signal, idle.signal]), maxRetries: 0 }
    const onTextDelta = options.onTextDelta && shielded(options.onTextDelta)
    let phase: 'request' | 'stream' = 'request'
    try {
      if (this.api === 'responses') {
        const events = await client.responses.create(responsesRequest(request, this.#options), requestOptions)
        phase = 'stream'
        return await this.#drain(events, new ResponsesStreamReader(this.endpoint.label, onTextDelta), signal, idle)
      }
      const chunks = await client.chat.completions.create(chatRequest(request, this.#options, this.endpoint), requestOptions)
      phase = 'stream'
      return await this.#drain(chunks, new ChatStreamReader(this.endpoint.label, onTextDelta), signal, idle)
    } catch (error) {
      // An abort is the caller's, not a model failure: it rejects with the signal's reason and is never retried.
      if (signal.aborted) throw signal.reason
      if (error instanceof ConsumerError) throw error.cause
      if (idle.fired) throw streamStalled(this.endpoint.label, this.#idleMs)
      throw toModelError(error, this.#errors, phase)
    } finally {
      idle.stop()
    }
  }

  async #drain<E>(events: AsyncIterable<E>, reader: StreamReader<E>, signal: AbortSignal, idle: IdleWatch): Promise<ModelResponse> {
    idle.start()
    for await (const event of events) {
      idle.touch()
      reader.push(event)
    }
    // The SDK ends a stream quietly when its signal aborts; which signal it was decides what the caller sees.
    signal.throwIfAborted()
    if (idle.fired) throw streamStalled(this.endpoint.label, this.#idleMs)
    return reader.finish()
  }

  #sdk(): OpenAI {
    if (this.#client) return this.#client
    const apiKey = this.endpoint.apiKey
    if (apiKey === undefined) throw missingKey(this.endpoint.label)
    this.#client = createClient(this.#options, this.endpoint, apiKey)
    return this.#client
  }
}

interface StreamReader<E> {
  push(event: E): void
  finish(): ModelResponse
}

/** A failure of the caller's `onTextDelta`: passed through as it is, not mistaken for a broken stream. */
class ConsumerError extends Error {
  override readonly cause: unknown
  constructor(cause: unknown) {
    super('onTextDelta failed')
    this.cause = cause
  }
}

function shielded(onTextDelta: (text: string) => void): (text: string) => void {
  return (text) => {
    try {
      onTextDelta(text)
    } catch (error) {
      throw new ConsumerError(error)
    }
  }
}
