import { definePlugin, type Plugin, type SessionEvent } from '@harness-kernel/kernel'

const indent = (text: string) => text.trimEnd().replaceAll('\n', '\n      ')

/** Prints the session log as it is written: what happened, step by step. */
export function stepPrinter(write: (line: string) => void): Plugin {
  return definePlugin({
    name: 'step-printer',
    setup(kernel) {
      kernel.hooks.sessionEvent.tap('print', ({ event }) => {
        const line = describe(event)
        if (line) write(line)
      })
    },
  })
}

function describe(event: SessionEvent): string | undefined {
  switch (event.type) {
    case 'turn/start':
      return '\n── turn ─────────────────────────────────────────'
    case 'step/start':
      return `\nstep ${event.step}`
    case 'message': {
      const { role, source, content } = event.message
      const lines: string[] = []
      for (const block of content) {
        if (block.type === 'text') {
          const who =
            source.kind === 'steering'
              ? `user (steered via ${source.transport})`
              : source.kind === 'plugin'
                ? `${role} (from ${source.plugin})`
                : role
          lines.push(`  ${who}: ${indent(block.text)}`)
        } else if (block.type === 'tool_call') lines.push(`  → ${block.name} ${JSON.stringify(block.input)}`)
      }
      return lines.join('\n') || undefined
    }
    case 'tool/call':
      return event.decision === 'deny' ? `  ✗ ${event.name} denied before it ran` : undefined
    case 'tool/result':
      return `  ${event.isError ? '✗' : '✓'} result: ${indent(event.output)}`
    case 'hook/run':
      return `  ⚙ ${event.dialect} ${event.event} hook: ${event.status}${event.entries?.length ? ` (${event.entries.map((entry) => entry.text).join('; ')})` : ''}`
    case 'steering/accepted':
      return `  ⇢ steering recorded at the ${event.boundary} boundary (${event.itemIds.length} item)`
    case 'notice':
      return `  ! ${event.text}`
    case 'turn/end':
      return `\n── turn ${event.status}${event.error ? `: ${event.error}` : ''}`
    default:
      return undefined
  }
}
