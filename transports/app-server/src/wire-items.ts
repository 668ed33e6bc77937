import type { Message, SessionEvent, TurnStatus } from '@harness-kernel/kernel'
import { collabItem, isCollabTool } from './collab-items.js'
import { agentMessageId, userMessageId } from './item-ids.js'
import type { UserInput } from './params.js'

/** The `tool/call` decision of a call the guardrails refused without asking anyone: Codex shows no item for it. */
export const REFUSED_BY_GUARDRAILS = 'deny-guardrails'

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

/** Codex's members of an `agentMessage` item that the kernel has nothing for. */
const AGENT_MESSAGE_NULLS = { phase: null, moderation: null, memoryCitation: null, delivery: null, questions: null }

/** Stamps an item as Codex does: `startedAtMs` always, `completedAtMs` null until it completes. */
export function stamped(item: WireItem, startedAtMs: number, completedAtMs: number | null): WireItem {
  return { ...item, startedAtMs, completedAtMs }
}

/**
 * The item a recorded message shows as, or undefined (tool results, plugin context, …), without its time stamps.
 * `agentIndex` is the message's place among its turn's agent messages (its id: `agentMessageId`).
 */
export function messageItem(
  event: Extract<SessionEvent, { type: 'message' }>,
  hostInput: boolean,
  sessionId: string,
  agentIndex: number,
): WireItem | undefined {
  const { message } = event
  const meta = appServerMeta(message)
  const steeringId = message.meta?.steeringItemId
  const id = typeof steeringId === 'string' ? steeringId : userMessageId(sessionId, event)
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
    return { type: 'agentMessage', id: agentMessageId(event.turnId ?? '', agentIndex), text, ...AGENT_MESSAGE_NULLS }
  }
  return undefined
}

/** An agent message item before its text is recorded (streaming). */
export function streamingAgentItem(id: string): WireItem {
  return { type: 'agentMessage', id, text: '', ...AGENT_MESSAGE_NULLS }
}

export function commandText(name: string, input: unknown): string {
  if (input && typeof input === 'object' && typeof (input as { command?: unknown }).command === 'string') {
    return (input as { command: string }).command
  }
  return `${name} ${JSON.stringify(input ?? {})}`
}

/** What ran, as Codex shows it (`/bin/bash -lc '…'` there): the shell tool's `/bin/bash -c '<command>'`. */
function commandLine(name: string, input: unknown, command: string): string {
  if (name !== 'shell' || typeof (input as { command?: unknown } | undefined)?.command !== 'string') return command
  return shellCommandLine(command)
}

/** A shell command line as the shell tool runs it: `/bin/bash -c '<command>'`. */
export function shellCommandLine(command: string): string {
  return `/bin/bash -c '${command.replaceAll("'", `'\\''`)}'`
}

/** A tool call as a command: what the model asked for, and since when. */
export interface CommandCall {
  callId: string
  name: string
  input: unknown
  startedMs: number
}

/** How a command ended: `aggregatedOutput` is its stdout and stderr as they came (else the tool's output text). */
export interface CommandEnd {
  status: 'completed' | 'failed' | 'declined'
  aggregatedOutput: string | null
  exitCode: number | null
  completedMs: number
  /** The tool's output text and details, for the items that read them (`collabAgentToolCall`). */
  output?: string
  details?: Record<string, unknown> | undefined
}

/** A tool call's item: a subagent tool's `collabAgentToolCall`, any other's `commandExecution`. */
export function toolCallItem(call: CommandCall, where: { cwd: string; threadId: string }, end?: CommandEnd): WireItem {
  return isCollabTool(call.name) ? collabItem(call, where.threadId, end) : commandItem(call, where.cwd, end)
}

/** A tool call as a `commandExecution` item (in progress without `end`). */
export function commandItem(call: CommandCall, cwd: string, end?: CommandEnd): WireItem {
  const command = commandText(call.name, call.input)
  return {
    type: 'commandExecution',
    id: call.callId,
    pluginId: null,
    scriptPath: null,
    command: commandLine(call.name, call.input, command),
    cwd,
    processId: null,
    source: 'agent',
    status: end?.status ?? 'inProgress',
    commandActions: [{ type: 'unknown', command }],
    // A declined command never ran: Codex gives it neither output nor a duration.
    aggregatedOutput: end?.status === 'declined' ? null : (end?.aggregatedOutput ?? null),
    exitCode: end?.exitCode ?? null,
    durationMs: end && end.status !== 'declined' ? Math.max(0, end.completedMs - call.startedMs) : null,
    startedAtMs: call.startedMs,
    completedAtMs: end?.completedMs ?? null,
  }
}

export function wireTurnStatus(status: TurnStatus): WireTurn['status'] {
  if (status === 'interrupted') return 'interrupted'
  if (status === 'failed') return 'failed'
  return 'completed'
}

const seconds = (ms: number) => Math.floor(ms / 1000)

/**
 * Rebuilds a thread's turns (with full items) from its session log, for `thread/resume`. Items carry the ids and time
 * stamps they had live; a command's exit code is not in the log (null).
 */
export function turnsFromEvents(events: readonly SessionEvent[], cwd: string, hostInput: boolean): WireTurn[] {
  const turns: (WireTurn & { startedMs: number; agentMessages: number })[] = []
  const calls = new Map<string, CommandCall & { declined: boolean }>()
  /** The subagent each tool call started (`subagent/start`), by call id. */
  const subagents = new Map<string, string>()
  let sessionId = ''
  let current: (WireTurn & { startedMs: number; agentMessages: number }) | undefined
  for (const event of events) {
    const at = Date.parse(event.at)
    if (event.type === 'session/start') sessionId = event.sessionId
    else if (event.type === 'subagent/start' && event.callId !== undefined) subagents.set(event.callId, event.sessionId)
    else if (event.type === 'turn/start') {
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
        agentMessages: 0,
      }
      turns.push(current)
    } else if (event.type === 'message') {
      const item = messageItem(event, hostInput, sessionId, current?.agentMessages ?? 0)
      if (item?.type === 'agentMessage' && current) current.agentMessages++
      if (item) current?.items.push(stamped(item, at, at))
    } else if (event.type === 'tool/call') {
      if (event.decision === REFUSED_BY_GUARDRAILS) continue
      calls.set(event.callId, {
        callId: event.callId,
        name: event.name,
        input: event.input,
        startedMs: at,
        declined: event.decision.startsWith('deny'),
      })
    } else if (event.type === 'tool/result') {
      const call = calls.get(event.callId)
      if (call && current) {
        const status = call.declined ? 'declined' : event.isError ? 'failed' : 'completed'
        const child = subagents.get(event.callId)
        const end = { status, aggregatedOutput: event.output, exitCode: null, completedMs: at, output: event.output } as const
        current.items.push(
          toolCallItem(call, { cwd, threadId: sessionId }, child === undefined ? end : { ...end, details: { sessionId: child } }),
        )
      }
    } else if (event.type === 'turn/end' && current?.id === event.turnId) {
      current.status = wireTurnStatus(event.status)
      current.error = event.error === undefined ? null : { message: event.error, codexErrorInfo: null, additionalDetails: null }
      current.completedAt = seconds(at)
      current.durationMs = at - current.startedMs
      current = undefined
    }
  }
  return turns.map(({ startedMs: _startedMs, agentMessages: _agentMessages, ...turn }) => turn)
}
