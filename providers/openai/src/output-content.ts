import { type ContentBlock, ModelError } from '@harness-kernel/kernel'
import { parseToolArguments } from './tool-arguments.js'

/** One piece of a streamed answer, in the order the model produced them. */
export type OutputSlot = { kind: 'text'; text: string } | { kind: 'call'; id: string; name: string; arguments: string }

/** The kernel's content blocks from the assembled slots: empty texts dropped, tool arguments parsed. */
export function contentOf(slots: Iterable<OutputSlot>, label: string): ContentBlock[] {
  const content: ContentBlock[] = []
  for (const slot of slots) {
    if (slot.kind === 'text') {
      if (slot.text !== '') content.push({ type: 'text', text: slot.text })
      continue
    }
    if (slot.name === '') throw new ModelError(`${label}: the model sent a tool call without a name`, { retryable: true })
    content.push({ type: 'tool_call', id: slot.id, name: slot.name, input: parseToolArguments(slot.arguments) })
  }
  return content
}
