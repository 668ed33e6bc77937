import { definePlugin, type Plugin, type SessionEvent } from '@harness-kernel/kernel'
import { type InputItem, isUserText, itemText, type ModelRequest, newInputItems, outputText } from './model-script.js'

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
      return `  ⓘ driver/session: Codex's own thread id is ${event.nativeId}`
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

function describeItem(item: InputItem): string | undefined {
  if (item.type === 'function_call_output') return `function_call_output "${clip(outputText(item), 60)}"`
  if (isUserText(item)) return `user message "${clip(itemText(item), 60)}"`
  return undefined
}

/** One model request as the fake Responses API saw it: what it adds since the model last spoke, and what it answered. */
export function describeRequest(request: ModelRequest): string {
  const added = newInputItems(request.input).map(describeItem).filter(Boolean).join(' → ')
  const reply =
    request.reply.kind === 'function_call'
      ? `function_call ${request.reply.name} ${JSON.stringify(request.reply.arguments)}`
      : `text "${clip(request.reply.text, 80)}"`
  return `  ⇄ model request #${request.n} (${request.input.length} input items; new since the model last spoke: ${added || 'nothing'}) ⇒ ${reply}`
}
