import type { Message, SessionEvent, TurnStatus } from '@harness-kernel/kernel'
import type { UserInput } from './params.js'

/** What the server keeps on a recorded message, in `message.meta.appServer` (it reaches the session log). */
export type AppServerMeta =
  | { kind: 'input'; content: UserInput[]; clientId: string | null }
  | { kind: 'steer'; content: UserInput[]; clientId: string | null }
  | { kind: 'injected' }
  | {
      kind: 'hostInput'
      role: 'user' | 'developer'
      authority: 'user' | 'host'
      content: UserInput[]
      clientId: string | null
      requestId: number
    }

export type WireItem = Record<string, unknown> & { type: string; id: string }

export interface WireTurn {
  id: string
  rootTurnId: string
  items: WireItem[]
  itemsView: 'notLoaded' | 'summary' | 'full'
  status: 'inProgress' | 'completed' | 'interrupted' | 'failed'
  error: { message: string; codexErrorInfo: null; additionalDetails: null } | null
  startedAt: number | null
  completedAt: number | null
  durationMs: number | null
}

export function appServerMeta(message: Message): AppServerMeta | undefined {
  return message.meta?.appServer as AppServerMeta | undefined
}

function textContent(message: Message): UserInput[] {
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
  return [{ type: 'text', text, text_elements: [] }]
}

/** The item a recorded message shows as, or undefined (tool results, plugin context, …). */
export function messageItem(event: Extract<SessionEvent, { type: 'message' }>, hostInput: boolean): WireItem | undefined {
  const { message } = event
  const meta = appServerMeta(message)
  const id = (message.meta?.steeringItemId as string | undefined) ?? `item-${event.seq}`
  if (meta?.kind === 'injected') return undefined
  if (meta?.kind === 'hostInput') {
    if (!hostInput) return undefined
    return { type: 'hostInputMessage', id, role: meta.role, authority: meta.authority, clientId: meta.clientId, content: meta.content }
  }
  if (message.role === 'user' && (message.source.kind === 'user' || message.source.kind === 'steering')) {
    return {
      type: 'userMessage',
      id,
      clientId: meta?.clientId ?? null,
      content: meta && 'content' in meta ? meta.content : textContent(message),
    }
  }
  if (message.role === 'assistant') {
    const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    if (text === '') return undefined
    return { type: 'agentMessage', id, text, phase: null }
  }
  return undefined
}

export function commandText(name: string, input: unknown): string {
  if (input && typeof input === 'object' && typeof (input as { command?: unknown }).command === 'string') {
    return (input as { command: string }).command
  }
  return `${name} ${JSON.stringify(input ?? {})}`
}

export function commandItem(
  call: { callId: string; name: string; input: unknown },
  cwd: string,
  status: 'inProgress' | 'completed' | 'failed' | 'declined',
  result?: { output: string; durationMs: number; exitCode: number | null },
): WireItem {
  const command = commandText(call.name, call.input)
  return {
    type: 'commandExecution',
    id: call.callId,
    command,
    cwd,
    processId: null,
    source: 'agent',
    status,
    commandActions: [{ type: 'unknown', command }],
    aggregatedOutput: result?.output ?? null,
    exitCode: result?.exitCode ?? null,
    durationMs: result?.durationMs ?? null,
  }
}

export function wireTurnStatus(status: TurnStatus): WireTurn['status'] {
  if (status === 'interrupted') return 'interrupted'
  if (status === 'failed') return 'failed'
  return 'completed'
}

const seconds = (ms: number) => Math.floor(ms / 1000)

/** Rebuilds a thread's turns (with full items) from its session log, for `thread/resume`. */
export function turnsFromEvents(events: readonly SessionEvent[], cwd: string, hostInput: boolean): WireTurn[] {
  const turns: (WireTurn & { startedMs: number })[] = []
  const calls = new Map<string, { callId: string; name: string; input: unknown; at: number; declined: boolean }>()
  let current: (WireTurn & { startedMs: number }) | undefined
  for (const event of events) {
    const at = Date.parse(event.at)
    if (event.type === 'turn/start') {
      current = {
        id: event.turnId,
        rootTurnId: event.turnId,
        items: [],
        itemsView: 'full',
        status: 'inProgress',
        error: null,
        startedAt: seconds(at),
        completedAt: null,
        durationMs: null,
        startedMs: at,
      }
      turns.push(current)
    } else if (event.type === 'message') {
      const item = messageItem(event, hostInput)
      if (item) current?.items.push(item)
    } else if (event.type === 'tool/call') {
      calls.set(event.callId, { callId: event.callId, name: event.name, input: event.input, at, declined: event.decision === 'deny' })
    } else if (event.type === 'tool/result') {
      const call = calls.get(event.callId)
      if (call && current) {
        const status = call.declined ? 'declined' : event.isError ? 'failed' : 'completed'
        current.items.push(commandItem(call, cwd, status, { output: event.output, durationMs: at - call.at, exitCode: null }))
      }
    } else if (event.type === 'turn/end' && current?.id === event.turnId) {
      current.status = wireTurnStatus(event.status)
      current.error = event.error === undefined ? null : { message: event.error, codexErrorInfo: null, additionalDetails: null }
      current.completedAt = seconds(at)
      current.durationMs = at - current.startedMs
      current = undefined
    }
  }
  return turns.map(({ startedMs: _startedMs, ...turn }) => turn)
}
