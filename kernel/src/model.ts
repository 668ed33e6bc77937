import type { ContentBlock, Message } from './messages.js'

/** What a tool looks like to a model: JSON Schema for its input. */
export interface ToolSpec {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

/** The exact request sent to the model for one sampling step (version 1 of the contract). */
export interface ModelRequest {
  system?: string
  messages: Message[]
  tools: ToolSpec[]
}

/**
 * One model call's token counts, the same on every provider and driver. `inputTokens` and `outputTokens` are what
 * the call was billed for as input and as output: every input token, cached ones included (so they are the size of
 * the context), and every output token, reasoning included. The other counts are parts of those two, never added
 * to them. How each provider's and program's numbers map: kernel/README.md, "Usage and cost".
 */
export interface ModelUsage {
  inputTokens?: number
  outputTokens?: number
  /** Of `inputTokens`: read from the provider's prompt cache (Anthropic's `cache_read_input_tokens`, OpenAI's `cached_tokens`). */
  cacheReadInputTokens?: number
  /** Of `inputTokens`: written to the prompt cache (Anthropic's `cache_creation_input_tokens`). */
  cacheCreationInputTokens?: number
  /** Of `outputTokens`: reasoning or thinking (OpenAI's `reasoning_tokens`, Codex's `reasoningOutputTokens`). */
  reasoningTokens?: number
}

export interface ModelResponse {
  /** Text and tool_call blocks, in the order the model produced them. */
  content: ContentBlock[]
  stopReason?: string
  usage?: ModelUsage
  /** The provider's id of this response (`resp_…`, `msg_…`), when it gives one. */
  id?: string
  /** The id of the model that answered, as the provider names it (`claude-sonnet-4-5-20250929`), when it says. */
  model?: string
}

export interface ModelCallOptions {
  signal: AbortSignal
  /** 1 for the first try of a step, 2+ for retries of the same request. */
  attempt: number
  sessionId: string
  turnId: string
  step: number
  /** Streaming text as it arrives (progress only; the response is what gets recorded). */
  onTextDelta?: (text: string) => void
}

/** What a provider's API accepts beyond the common ground; plugins pick renderings from it. */
export interface ModelCapabilities {
  /** `developer` messages anywhere in `messages` are sent as system-role messages in place (not hoisted or rewritten). */
  systemMessagesInConversation?: boolean
}

/** The `model` service. Providers translate `ModelRequest` to their API and back. */
export interface ModelProvider {
  readonly id: string
  /** Whose models answer, as the OpenTelemetry GenAI conventions name it (`gen_ai.provider.name`: `openai`, `anthropic`). */
  readonly providerName?: string
  readonly capabilities?: ModelCapabilities
  generate(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>
}

/**
 * A provider failure. `retryable` failures are retried by the kernel with backoff, never sooner than `retryAfterMs`
 * (a server's `retry-after`), within the same step: no boundary or hook runs again.
 */
export class ModelError extends Error {
  override readonly name = 'ModelError'
  readonly retryable: boolean
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined

  constructor(message: string, options: { retryable: boolean; status?: number; retryAfterMs?: number; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.retryable = options.retryable
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
  }
}

export function isRetryableModelError(error: unknown): error is ModelError {
  return error instanceof ModelError && error.retryable
}
