import type { Message } from '../messages.js'
import type { ModelRequest, ModelResponse, ToolSpec } from '../model.js'

/** What a summary is written from. */
export interface SummarizeInput {
  messages: readonly Message[]
  system: string | undefined
  tools: readonly ToolSpec[]
  /** The session's model, with the kernel's retries and the compaction's signal. */
  sample(request: ModelRequest): Promise<ModelResponse>
  /** What a user asked the summary to keep (`session.compact({ instructions })`). */
  instructions?: string | undefined
}

/**
 * The `compactor` service: when the native loop compacts on its own, how a summary is written, which messages go
 * before it and how much of the conversation's end is kept as it is after it. `compaction()` provides one; without it, only `session.compact()` compacts,
 * with `defaultCompactor()`.
 */
export interface Compactor {
  /** Before each model request of the native loop: compact first? */
  shouldCompact(request: ModelRequest): boolean
  summarize(input: SummarizeInput): Promise<string>
  /** How many messages at the end of `messages` stay as they are after the summary (never splitting a call from its result). */
  keep(messages: readonly Message[]): number
  /**
   * Messages put before the summary, copied into the `compaction` event (so a resume rebuilds them as they were):
   * Codex's shape keeps the user's own messages there. None when absent.
   */
  prefix?(messages: readonly Message[]): Message[]
}
