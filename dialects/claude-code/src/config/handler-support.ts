import { isClaudeEvent, isProducedEvent, TOOL_EVENTS, UNPRODUCED_EVENTS } from '../events.js'
import { type ClaudeHandler, isRunnableType } from '../types.js'

const KNOWN_UNSUPPORTED_TYPES = new Set(['agent'])

/**
 * Why the kernel cannot run a handler at all: its event is unknown or never produced, it has `if` on an event without
 * a tool call, or its type is not run.
 */
export function unsupportedReason(handler: ClaudeHandler): string | undefined {
  const { event } = handler
  if (!isClaudeEvent(event)) return `unknown event ${JSON.stringify(event)}`
  if (!isProducedEvent(event)) return `never fired: ${UNPRODUCED_EVENTS[event]}`
  // Claude Code never runs a handler with `if` on an event that has no tool call (2.1.332, `claude -p`, 2 runs: Stop and
  // UserPromptSubmit handlers with `if` did not run, their neighbours without it did).
  if (handler.if !== undefined && !TOOL_EVENTS.has(event)) return `"if" applies only to tool events; never run on ${event}`
  if (isRunnableType(handler)) return undefined
  if (KNOWN_UNSUPPORTED_TYPES.has(handler.type)) return `handler type ${JSON.stringify(handler.type)} is not supported by the kernel`
  return `unknown handler type ${JSON.stringify(handler.type)}`
}
