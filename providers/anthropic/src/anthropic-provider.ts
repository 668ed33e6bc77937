import Anthropic from '@anthropic-ai/sdk'
import {
  type ModelCallOptions,
  type ModelCapabilities,
  ModelError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
} from '@harness-kernel/kernel'
import { type AnthropicModelOptions, type ResolvedAnthropicOptions, resolveOptions } from './anthropic-options.js'
import { IdleWatch } from './idle-watch.js'
import { buildMessagesRequest } from './messages-request.js'
import { readMessageStream } from './messages-stream.js'
import { type ErrorContext, toModelError } from './model-errors.js'
import { ThinkingReplay } from './thinking-replay.js'

/** The SDK's default timeout for a response to start: 10 minutes. */
const SDK_DEFAULT_TIMEOUT_MS = 600_000
/** A stream with no event (the API sends `ping`s between others) for this long has stalled. */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 300_000

/**
 * A `ModelProvider` over the Anthropic Messages API, through the official SDK, streaming. One `generate()` is exactly
 * one HTTP request: the SDK's own retries are off (`maxRetries: 0`) because the kernel retries retryable ModelErrors
 * itself, within the same step, waiting at least the server's `retry-after`.
 */
export class AnthropicProvider implements ModelProvider {
  readonly id: string
  readonly providerName = 'anthropic'
  readonly capabilities: ModelCapabilities
  readonly #client: Anthropic
  readonly #options: ResolvedAnthropicOptions
  readonly #errors: Omit<ErrorContext, 'phase'>
  readonly #replay = new ThinkingReplay()
  readonly #idleMs: number

  constructor(options: AnthropicModelOptions) {
    this.#options = resolveOptions(options)
    this.id = options.id ?? `anthropic:${this.#options.model}`
    this.capabilities = { systemMessagesInConversation: this.#options.developerMessages === 'system' }
    this.#client = new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.authToken === undefined ? {} : { authToken: options.authToken }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
      maxRetries: 0,
    })
    this.#idleMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS
    this.#errors = {
      baseURL: this.#client.baseURL,
      timeoutMs: options.timeoutMs ?? SDK_DEFAULT_TIMEOUT_MS,
      credentialHint: credentialHint(options),
    }
  }

  async generate(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    options.signal.throwIfAborted()
    const body = buildMessagesRequest(request, this.#options, this.#replay)
    let phase: ErrorContext['phase'] = 'request'
    const idle = new IdleWatch(this.#idleMs)
    try {
      const signal = this.#idleMs > 0 ? AbortSignal.any([options.signal, idle.signal]) : options.signal
      const stream = await this.#client.messages.create(body, { signal })
      phase = 'stream'
      const message = await readMessageStream(idle.watch(stream), options.onTextDelta)
      this.#replay.remember(message.raw, message.content)
      const response: ModelResponse = { content: message.content }
      if (message.stopReason !== undefined) response.stopReason = message.stopReason
      if (message.usage !== undefined) response.usage = message.usage
      if (message.id !== undefined) response.id = message.id
      response.model = message.model ?? this.#options.model
      return response
    } catch (error) {
      // The SDK ends an aborted stream quietly (or throws its own abort error): the caller's reason is the answer.
      if (options.signal.aborted) throw options.signal.reason
      if (idle.fired) {
        throw new ModelError(`the stream stalled: no data from the Anthropic API for ${this.#idleMs} ms`, { retryable: true, cause: error })
      }
      throw toModelError(error, { ...this.#errors, phase })
    } finally {
      idle.stop()
    }
  }
}

function credentialHint(options: AnthropicModelOptions): string {
  if (options.apiKey !== undefined) return 'check the apiKey given to anthropicModel()'
  if (options.authToken !== undefined) return 'check the authToken given to anthropicModel()'
  if (process.env.ANTHROPIC_API_KEY) return 'check ANTHROPIC_API_KEY'
  if (process.env.ANTHROPIC_AUTH_TOKEN) return 'check ANTHROPIC_AUTH_TOKEN'
  return 'set ANTHROPIC_API_KEY or pass apiKey to anthropicModel()'
}
