import type { CommandCall, CommandEnd, WireItem } from './wire-items.js'

/** The subagent tools (`@harness-kernel/subagents`) and the `CollabAgentTool` each shows as. */
const COLLAB_TOOLS: Readonly<Record<string, string>> = {
  spawn_agent: 'spawnAgent',
  Agent: 'spawnAgent',
  wait_agent: 'wait',
  send_input: 'sendInput',
  close_agent: 'closeAgent',
}

type AgentState = { status: string; message: string | null }

export function isCollabTool(name: string): boolean {
  return Object.hasOwn(COLLAB_TOOLS, name)
}

/**
 * A subagent tool call as Codex shows one: a `collabAgentToolCall` item from this thread to the subagents' threads,
 * with their last known states (`agentsStates`). In progress without `end`.
 */
export function collabItem(call: CommandCall, threadId: string, end?: CommandEnd): WireItem {
  const input = (call.input ?? {}) as Record<string, unknown>
  const states = end === undefined || end.status !== 'completed' ? {} : agentStates(call.name, input, end)
  return {
    type: 'collabAgentToolCall',
    id: call.callId,
    tool: COLLAB_TOOLS[call.name],
    status: end === undefined ? 'inProgress' : end.status === 'completed' ? 'completed' : 'failed',
    senderThreadId: threadId,
    receiverThreadIds: receivers(call.name, input, end, states),
    prompt: text(input.message) ?? text(input.prompt),
    model: text(input.model),
    reasoningEffort: null,
    agentsStates: states,
    startedAtMs: call.startedMs,
    completedAtMs: end?.completedMs ?? null,
  }
}

function receivers(
  name: string,
  input: Record<string, unknown>,
  end: CommandEnd | undefined,
  states: Record<string, AgentState>,
): string[] {
  if (Array.isArray(input.targets)) return input.targets.filter((target): target is string => typeof target === 'string')
  if (typeof input.target === 'string') return [input.target]
  const spawned = text(end?.details?.sessionId) ?? (name === 'spawn_agent' ? Object.keys(states)[0] : undefined)
  return spawned === undefined ? [] : [spawned]
}

function agentStates(name: string, input: Record<string, unknown>, end: CommandEnd): Record<string, AgentState> {
  const output = end.output ?? ''
  const parsed = parse(output)
  switch (name) {
    case 'spawn_agent': {
      const id = text(parsed?.agent_id) ?? text(end.details?.sessionId)
      return id === undefined ? {} : { [id]: { status: 'running', message: null } }
    }
    case 'Agent': {
      const id = text(end.details?.sessionId)
      if (id === undefined) return {}
      const background = (end.details?.toolResponse as { isAsync?: unknown } | undefined)?.isAsync === true
      return { [id]: background ? { status: 'running', message: null } : { status: 'completed', message: output } }
    }
    case 'wait_agent': {
      const statuses = (parsed?.status ?? {}) as Record<string, unknown>
      return Object.fromEntries(Object.entries(statuses).map(([id, status]) => [id, stateOf(status)]))
    }
    case 'close_agent':
      return typeof input.target === 'string' ? { [input.target]: { status: 'shutdown', message: null } } : {}
    default:
      return typeof input.target === 'string' ? { [input.target]: { status: 'running', message: null } } : {}
  }
}

/** Codex's serialized `AgentStatus` (`"running"`, `{"completed": message}`, …) as a `CollabAgentState`. */
function stateOf(status: unknown): AgentState {
  if (typeof status === 'string') return { status: status === 'not_found' ? 'notFound' : status, message: null }
  const [kind, message] = Object.entries((status ?? {}) as Record<string, unknown>)[0] ?? ['errored', null]
  return { status: kind, message: text(message) ?? null }
}

function parse(output: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(output)
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
