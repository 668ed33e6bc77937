import { type KernelApi, type Message, STAGE_OBSERVE } from '@harness-kernel/kernel'
import { PLUGIN_NAME } from './run-event.js'

/**
 * The kernel records a step's contexts after all its tool results; Codex puts a PreToolUse or PostToolUse context
 * between the `function_call` and its output. This moves each Codex tool context (anchored by `meta.toolCallId`)
 * to just before its call's result in the request, so the model sees Codex's order. The log keeps the kernel's.
 */
export function tapToolContextOrder(kernel: KernelApi): void {
  kernel.hooks.modelRequest.tap(
    { name: `${PLUGIN_NAME}:tool-context-order`, stage: STAGE_OBSERVE, rendersOnly: true } as never,
    (request) => {
      if (!request.messages.some(isAnchoredContext)) return request
      return { ...request, messages: codexOrder(request.messages) }
    },
  )
}

function isAnchoredContext(message: Message): boolean {
  return (
    message.role === 'developer' &&
    message.source.kind === 'plugin' &&
    message.source.plugin === PLUGIN_NAME &&
    typeof message.meta?.toolCallId === 'string'
  )
}

export function codexOrder(messages: readonly Message[]): Message[] {
  const moved = new Set<Message>()
  const ordered: Message[] = []
  for (const [index, message] of messages.entries()) {
    if (moved.has(message)) continue
    const callId = message.role === 'tool' ? toolResultCallId(message) : undefined
    if (callId !== undefined) {
      for (const later of messages.slice(index + 1)) {
        if (later.role === 'assistant' || later.role === 'user') break
        if (isAnchoredContext(later) && later.meta?.toolCallId === callId) {
          ordered.push(later)
          moved.add(later)
        }
      }
    }
    ordered.push(message)
  }
  return ordered
}

function toolResultCallId(message: Message): string | undefined {
  const block = message.content.find((part) => part.type === 'tool_result')
  return block?.type === 'tool_result' ? block.callId : undefined
}
