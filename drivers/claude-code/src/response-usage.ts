import type { ModelUsage } from '@harness-kernel/kernel'

/** Anthropic's usage counts as Claude Code passes them on (`message_start`, `message_delta`, an assistant message). */
export interface WireUsage {
  input_tokens?: number | null
  output_tokens?: number | null
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
}

/**
 * Anthropic's counts in the kernel's terms: `input_tokens` leaves the cache's parts out, so `inputTokens` adds them
 * back (every input token, as billed); `output_tokens` includes thinking. Undefined when nothing was counted (Claude
 * Code's synthetic messages count zeros).
 */
export function modelUsageOf(counts: WireUsage | undefined): ModelUsage | undefined {
  if (counts === undefined) return undefined
  const cacheRead = counts.cache_read_input_tokens ?? 0
  const cacheWrite = counts.cache_creation_input_tokens ?? 0
  const input = (counts.input_tokens ?? 0) + cacheRead + cacheWrite
  const output = counts.output_tokens ?? 0
  if (input === 0 && output === 0) return undefined
  const usage: ModelUsage = { inputTokens: input, outputTokens: output }
  if (cacheRead > 0) usage.cacheReadInputTokens = cacheRead
  if (cacheWrite > 0) usage.cacheCreationInputTokens = cacheWrite
  return usage
}

/**
 * One model response as Claude Code streams it (`stream_event`s): its counts from `message_start`, the final output
 * count from `message_delta`. Claude Code's assistant messages repeat `message_start`'s counts (output 1), so a step's
 * usage is only whole once the response has ended.
 */
export class StreamedResponse {
  readonly id: string
  #counts: WireUsage
  #ended = false
  readonly #whenEnded: Promise<void>
  #markEnded!: () => void

  constructor(id: string, counts: WireUsage | undefined) {
    this.id = id
    this.#counts = { ...counts }
    this.#whenEnded = new Promise((resolve) => {
      this.#markEnded = resolve
    })
  }

  /** `message_delta`: the running counts (a null or missing count is unchanged). */
  update(counts: WireUsage | undefined): void {
    for (const [key, value] of Object.entries(counts ?? {}) as [keyof WireUsage, number | null | undefined][]) {
      if (typeof value === 'number') this.#counts[key] = value
    }
  }

  /** `message_stop`, or the response gave way to another, the turn's end, an exit. */
  end(): void {
    this.#ended = true
    this.#markEnded()
  }

  get ended(): boolean {
    return this.#ended
  }

  get whenEnded(): Promise<void> {
    return this.#whenEnded
  }

  get usage(): ModelUsage | undefined {
    return modelUsageOf(this.#counts)
  }
}
