import { definePlugin, type Plugin, type SessionEvent } from '@harness-kernel/kernel'
import { type Block, type ModelRequest, trailingUserBlocks, userText } from './model-script.js'

const clip = (text: string, max = 100) => {
  const line = text.trim().replaceAll('\n', ' ⏎ ')
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** Prints the kernel's session log as it is written, one line per event worth showing. */
export function narrator(write: (line: string) => void): Plugin {
  let turns = 0
  return definePlugin({
    name: 'narrator',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('narrate', ({ event }) => {
        if (event.type === 'turn/start') turns++
        const line = describe(event, turns)
        if (line) write(line)
      })
    },
  })
}

function describe(event: SessionEvent, turn: number): string | undefined {
  switch (event.type) {
    case 'turn/start':
      return `\n── turn ${turn} ──────────────────────────────────────────────`
    case 'driver/session':
      return `  ⓘ driver/session: Claude Code's own session id is ${event.nativeId}`
    case 'message': {
      const { role, source, content } = event.message
      const who = source.kind === 'steering' ? `user (steered via ${source.transport})` : role
      return content
        .map((block) =>
          block.type === 'text'
            ? `  ${who}: ${clip(block.text)}`
            : block.type === 'tool_call'
              ? `  ${role}: → ${block.name} ${JSON.stringify(block.input)}`
              : undefined,
        )
        .filter(Boolean)
        .join('\n')
    }
    case 'tool/call':
      return `  tool/call ${event.name} (step ${event.step}): ${event.decision}`
    case 'tool/result':
      return `  tool/result (step ${event.step}) ${event.isError ? '✗' : '✓'} ${clip(event.output)}`
    case 'steering/accepted':
      return `  ⇢ steering/accepted at the ${event.boundary} boundary of step ${event.step}: ${event.itemIds.length} recorded, ${event.droppedIds.length} dropped`
    case 'steering/dropped':
      return `  ⇢ steering/dropped: ${event.reason}`
    case 'notice':
      return `  ! notice (${event.source}, ${event.level}): ${clip(event.text, 200)}`
    case 'turn/end':
      return `── turn ${turn} ${event.status}${event.error ? `: ${event.error}` : ''}`
    default:
      return undefined
  }
}

function describeBlock(block: Block): string | undefined {
  if (block.type === 'tool_result') {
    const text = typeof block.content === 'string' ? block.content : (block.content ?? []).map((part) => part.text ?? '').join(' ')
    return `tool_result${block.is_error ? ' (error)' : ''} "${clip(text, 60)}"`
  }
  if (block.type === 'text') {
    const text = userText(block)
    return text ? `user text "${clip(text, 60)}"` : undefined
  }
  return undefined
}

/** One model request as the fake Messages API saw it: what the history ends with and what it answered. */
export function describeRequest(request: ModelRequest): string {
  const tail = trailingUserBlocks(request.messages).map(describeBlock).filter(Boolean).join(' → ')
  const reply =
    request.reply.kind === 'tool_use'
      ? `tool_use ${request.reply.name} ${JSON.stringify(request.reply.input)}`
      : `text "${clip(request.reply.text, 80)}"`
  return `  ⇄ model request #${request.n} (${request.messages.length} messages; new since the last answer: ${tail || 'nothing'}) ⇒ ${reply}`
}
