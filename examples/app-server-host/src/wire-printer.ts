import type { Notification } from '@harness-kernel/app-server'

type Item = Record<string, unknown> & { type: string; id: string }

const shown = new Set(['userMessage', 'commandExecution', 'agentMessage', 'hostInputMessage'])
const indent = (text: string) => text.trimEnd().replaceAll('\n', '\n        ')
const contentText = (content: unknown) =>
  (content as { type: string; text?: string }[]).map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('')
const clientTag = (item: Item) => (item.clientId ? ` [clientId ${String(item.clientId)}]` : '')

/** One line for the notifications a host cares about here; undefined for the rest. */
export function describeNotification({ method, params }: Notification, turnLabel: (turnId: unknown) => string): string | undefined {
  switch (method) {
    case 'turn/started': {
      const turn = params.turn as { id: string }
      return `  ← turn/started ${turnLabel(turn.id)}`
    }
    case 'item/started':
    case 'item/completed': {
      const item = params.item as Item
      if (!shown.has(item.type)) return undefined
      const where = turnLabel(params.turnId)
      if (method === 'item/started') {
        // What the model asked to run (`command` is the whole shell line, `/bin/bash -c '…'`).
        const asked = (item.commandActions as { command?: string }[] | undefined)?.[0]?.command ?? item.command
        return item.type === 'commandExecution' ? `  ← item/started commandExecution in ${where}: $ ${String(asked)}` : undefined
      }
      switch (item.type) {
        case 'userMessage':
          return `  ← item/completed userMessage in ${where}${clientTag(item)}: ${contentText(item.content)}`
        case 'hostInputMessage':
          return `  ← item/completed hostInputMessage in ${where} (role ${String(item.role)}, authority ${String(item.authority)})${clientTag(item)}: ${contentText(item.content)}`
        case 'commandExecution':
          return `  ← item/completed commandExecution in ${where} (${String(item.status)}): ${indent(String(item.aggregatedOutput ?? ''))}`
        default:
          return `  ← item/completed agentMessage in ${where}: ${String(item.text)}`
      }
    }
    case 'turn/hostInput/accepted': {
      const items = params.items as { index: number; status: string }[]
      const statuses = items.length === 0 ? 'no items' : items.map((entry) => `item ${entry.index} ${entry.status}`).join(', ')
      return `  ← turn/hostInput/accepted request #${String(params.requestId)} in ${turnLabel(params.turnId)}: ${statuses}`
    }
    case 'turn/hostInput/rejected':
      return `  ← turn/hostInput/rejected request #${String(params.requestId)}: ${String(params.reason)} (${String(params.message)})`
    case 'turn/steer/dropped':
      return `  ← turn/steer/dropped in ${turnLabel(params.turnId)} [clientId ${String(params.clientUserMessageId)}]: ${String(params.reason)}`
    case 'turn/completed': {
      const turn = params.turn as { id: string; status: string }
      return `  ← turn/completed ${turnLabel(turn.id)}: ${turn.status}`
    }
    default:
      return undefined
  }
}
