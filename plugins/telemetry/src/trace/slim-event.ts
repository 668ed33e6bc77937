import type { ContentBlock, Message, SessionEvent } from '@harness-kernel/kernel'
import type { ContentCapture } from '../config/export-config.js'

/**
 * The event as its trace reads it: the same shape, without the texts nobody asked to capture (a tool's output, the
 * conversation, a compaction's summary). What crosses to the export thread is this, so a step costs a few small objects
 * there, not a copy of its conversation.
 */
export function slimEvent(event: SessionEvent, capture: ContentCapture): SessionEvent {
  switch (event.type) {
    case 'message':
      return { ...event, message: slimMessage(event.message, capture) }
    case 'tool/call':
      return capture.outputs ? event : { ...event, input: {} }
    case 'tool/result':
      return capture.outputs ? event : { ...event, output: '' }
    case 'compaction':
      return capture.outputs ? event : { ...event, summary: '', prefix: [] }
    case 'hook/run':
      return capture.outputs || event.command === undefined ? event : { ...event, command: undefined }
    default:
      return event
  }
}

function slimMessage(message: Message, capture: ContentCapture): Message {
  const keep = message.role === 'assistant' ? capture.outputs : message.role === 'user' ? capture.prompts : false
  if (keep) return message
  const content: ContentBlock[] = []
  // An assistant's tool calls open the calls' spans; their arguments are content.
  if (message.role === 'assistant')
    for (const block of message.content) if (block.type === 'tool_call') content.push({ ...block, input: {} })
  return { role: message.role, content, ...(message.meta === undefined ? {} : { meta: message.meta }) } as Message
}
