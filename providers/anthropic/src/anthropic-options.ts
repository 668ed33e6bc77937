/** Default `max_tokens`: room for a long file write, within every current Claude model's output limit. */
export const DEFAULT_MAX_TOKENS = 16_384

export interface AnthropicModelOptions {
  /** The model name sent as `model`, e.g. `claude-sonnet-4-5`. Required. */
  model: string
  /** The API's base URL. Default `$ANTHROPIC_BASE_URL`, else `https://api.anthropic.com` (the SDK's default). */
  baseURL?: string
  /** The API key. Default `$ANTHROPIC_API_KEY`. Give at most one of `apiKey` and `authToken`. */
  apiKey?: string
  /** A bearer token instead of an API key (a gateway's, an OAuth token). Default `$ANTHROPIC_AUTH_TOKEN` when no key is set. */
  authToken?: string
  /**
   * `max_tokens`, which the Messages API requires: the most tokens one response may hold (thinking included).
   * Default 16384, plus `thinking.budgetTokens` when a thinking budget is given.
   */
  maxTokens?: number
  /**
   * Extended thinking: `{ budgetTokens }` (at least 1024) sends `{type:'enabled', budget_tokens}`; `'adaptive'` lets the
   * model decide; `'disabled'` turns it off. Default: not sent (the model's default). Thinking is never shown to the
   * kernel; its blocks are replayed unchanged in later requests of a tool loop, as the API requires (see README).
   */
  thinking?: { budgetTokens: number } | 'adaptive' | 'disabled'
  /**
   * How `developer` messages (context from plugins) are sent. `reminder` (default): as a user-side text block
   * `<system-reminder>\n…\n</system-reminder>` (Claude Code's classic form), valid for every model. `system`: as
   * `{role:'system'}` messages in place, for models and API versions that accept them; the provider then declares
   * `capabilities.systemMessagesInConversation`.
   */
  developerMessages?: 'reminder' | 'system'
  /** Prompt caching: sends the top-level `cache_control` (the API marks the last cacheable block). Default off. */
  promptCaching?: boolean | { ttl?: '5m' | '1h' }
  /** Extra HTTP headers on every request (`anthropic-beta`, a gateway's headers, …). */
  headers?: Record<string, string>
  /** How long to wait for the response to start (its headers), in milliseconds. Default: the SDK's, 10 minutes. */
  timeoutMs?: number
  /**
   * A stream with no event for this long (the API sends `ping`s while it works) is given up as stalled: a retryable
   * error, so the kernel tries again. Default 300000 (5 minutes); 0 waits forever.
   */
  streamIdleTimeoutMs?: number
  /** The provider id the kernel shows in notices. Default `anthropic:<model>`. */
  id?: string
}

export interface ResolvedAnthropicOptions {
  model: string
  maxTokens: number
  thinking: AnthropicModelOptions['thinking']
  developerMessages: 'reminder' | 'system'
  promptCaching: { ttl: '5m' | '1h' | undefined } | undefined
}

/** Checks the options a person gives and fills in defaults; a mistake is a TypeError that says what to fix. */
export function resolveOptions(options: AnthropicModelOptions): ResolvedAnthropicOptions {
  if (typeof options?.model !== 'string' || options.model.trim() === '') {
    throw new TypeError("anthropicModel: `model` is required, e.g. anthropicModel({ model: 'claude-sonnet-4-5' })")
  }
  if (options.apiKey !== undefined && options.authToken !== undefined) {
    throw new TypeError('anthropicModel: give either `apiKey` or `authToken`, not both')
  }
  const thinking = options.thinking
  if (typeof thinking === 'object' && !(Number.isInteger(thinking.budgetTokens) && thinking.budgetTokens >= 1024)) {
    throw new TypeError(`anthropicModel: thinking.budgetTokens must be an integer of at least 1024, got ${thinking.budgetTokens}`)
  }
  const budget = typeof thinking === 'object' ? thinking.budgetTokens : 0
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS + budget
  if (!(Number.isInteger(maxTokens) && maxTokens >= 1)) {
    throw new TypeError(`anthropicModel: maxTokens must be a positive integer, got ${options.maxTokens}`)
  }
  if (budget > 0 && budget >= maxTokens) {
    throw new TypeError(`anthropicModel: thinking.budgetTokens (${budget}) must be less than maxTokens (${maxTokens})`)
  }
  const idle = options.streamIdleTimeoutMs
  if (idle !== undefined && !(Number.isFinite(idle) && idle >= 0)) {
    throw new TypeError(`anthropicModel: streamIdleTimeoutMs must be a number of milliseconds >= 0, got ${idle}`)
  }
  const developerMessages = options.developerMessages ?? 'reminder'
  if (developerMessages !== 'reminder' && developerMessages !== 'system') {
    throw new TypeError(`anthropicModel: developerMessages must be 'reminder' or 'system', got ${JSON.stringify(developerMessages)}`)
  }
  const caching = options.promptCaching
  return {
    model: options.model,
    maxTokens,
    thinking,
    developerMessages,
    promptCaching: caching ? { ttl: typeof caching === 'object' ? caching.ttl : undefined } : undefined,
  }
}
