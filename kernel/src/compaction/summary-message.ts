import type { Message } from '../messages.js'
import { summaryText } from './summary-prompt.js'

/** The message a `compaction` event puts in place of the conversation it summarized. */
export function compactionSummary(summary: string): Message {
  return { role: 'user', content: [{ type: 'text', text: summaryText(summary) }], source: { kind: 'plugin', plugin: 'compaction' } }
}
