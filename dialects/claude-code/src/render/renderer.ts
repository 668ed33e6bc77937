import type { Message } from '@harness-kernel/kernel'

/**
 * Turns the log's neutral hook texts (developer messages with `meta.claudeCode`) into what the model sees, for one
 * request. It must not mutate the messages it is given: they are the log's.
 */
export interface ClaudeRenderer {
  readonly name: string
  render(messages: readonly Message[]): Message[]
}
