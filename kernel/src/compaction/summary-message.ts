import type { Message } from '../messages.js'
import { summaryText } from './summary-prompt.js'

/** The message a `compaction` event puts in place of the conversation it summarized. */
export function compactionSummary(summary: string): Message {
  return { role: 'user', content: [{ type: 'text', text: summaryText(summary) }], source: { kind: 'plugin', plugin: 'compaction' } }
}

/**
 * The messages after a `compaction` event: its `prefix`, the summary, then the last `kept` of the messages before it.
 * The transcript and every resume rebuild them from the event alone.
 */
export function compactedMessages(
  messages: readonly Message[],
  event: { summary: string; kept: number; prefix?: readonly Message[] | undefined },
): Message[] {
  const kept = Math.min(Math.max(0, event.kept), messages.length)
  return [...(event.prefix ?? []), compactionSummary(event.summary), ...messages.slice(messages.length - kept)]
}
