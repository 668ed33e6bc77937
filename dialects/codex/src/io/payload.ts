import type { CodexEvent } from '../events.js'

/** Everything a Codex hook payload can carry, camelCased. Which fields an event sends, and in which order, is fixed. */
export interface CodexPayloadFields {
  /** The thread id. */
  sessionId: string
  /** Every event but SessionStart and SessionEnd. For SubagentStart, the child's turn. */
  turnId?: string | undefined
  /** The session log; `null` for an ephemeral session. For SubagentStart the child's, for SubagentStop the parent's. */
  transcriptPath: string | null
  cwd: string
  /** Every event but SessionEnd. */
  model?: string | undefined
  /** `bypassPermissions` when the approval policy is never. Not sent on SessionEnd, PreCompact, PostCompact. */
  permissionMode?: 'default' | 'bypassPermissions' | undefined
  /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
  source?: string | undefined
  /** UserPromptSubmit. */
  prompt?: string | undefined
  /** PreToolUse, PermissionRequest, PostToolUse. */
  toolName?: string | undefined
  toolInput?: unknown
  /** PostToolUse. */
  toolResponse?: unknown
  /** PreToolUse, PostToolUse (PermissionRequest never sends one). */
  toolUseId?: string | undefined
  /** PreCompact, PostCompact: `manual` or `auto`. */
  trigger?: string | undefined
  /** SubagentStart, SubagentStop: the child. */
  agentId?: string | undefined
  agentType?: string | undefined
  /** SubagentStop: the child's session log, or `null`. */
  agentTranscriptPath?: string | null | undefined
  /** Stop, SubagentStop. */
  stopHookActive?: boolean | undefined
  /** Stop, SubagentStop; `null` when there is none. */
  lastAssistantMessage?: string | null | undefined
  /** SessionEnd; always `other` in practice. */
  reason?: string | undefined
  /**
   * Turn events inside a subagent (UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact)
   * gain `agent_id`, `agent_type` right after `turn_id`. Ignored for other events, which never fire inside a subagent.
   */
  subagent?: { agentId: string; agentType: string } | undefined
}

type Key = keyof CodexPayloadFields | 'hookEventName'

const SNAKE: Record<Key, string> = {
  sessionId: 'session_id',
  turnId: 'turn_id',
  transcriptPath: 'transcript_path',
  cwd: 'cwd',
  hookEventName: 'hook_event_name',
  model: 'model',
  permissionMode: 'permission_mode',
  source: 'source',
  prompt: 'prompt',
  toolName: 'tool_name',
  toolInput: 'tool_input',
  toolResponse: 'tool_response',
  toolUseId: 'tool_use_id',
  trigger: 'trigger',
  agentId: 'agent_id',
  agentType: 'agent_type',
  agentTranscriptPath: 'agent_transcript_path',
  stopHookActive: 'stop_hook_active',
  lastAssistantMessage: 'last_assistant_message',
  reason: 'reason',
  subagent: 'subagent',
}

// 'subagent' marks where a subagent's agent_id, agent_type go; the events without it never fire inside one.
type Slot = Key | 'subagentSlot'

const TURN_HEAD: Slot[] = ['sessionId', 'turnId', 'subagentSlot', 'transcriptPath', 'cwd', 'hookEventName', 'model']

/** Codex's field order per event (codex-hooks.md §5.2, §5.3). */
const ORDER: Record<CodexEvent, Slot[]> = {
  SessionStart: ['sessionId', 'transcriptPath', 'cwd', 'hookEventName', 'model', 'permissionMode', 'source'],
  UserPromptSubmit: [...TURN_HEAD, 'permissionMode', 'prompt'],
  PreToolUse: [...TURN_HEAD, 'permissionMode', 'toolName', 'toolInput', 'toolUseId'],
  PermissionRequest: [...TURN_HEAD, 'permissionMode', 'toolName', 'toolInput'],
  PostToolUse: [...TURN_HEAD, 'permissionMode', 'toolName', 'toolInput', 'toolResponse', 'toolUseId'],
  PreCompact: [...TURN_HEAD, 'trigger'],
  PostCompact: [...TURN_HEAD, 'trigger'],
  SubagentStart: ['sessionId', 'turnId', 'transcriptPath', 'cwd', 'hookEventName', 'model', 'permissionMode', 'agentId', 'agentType'],
  SubagentStop: [
    'sessionId',
    'turnId',
    'transcriptPath',
    'agentTranscriptPath',
    'cwd',
    'hookEventName',
    'model',
    'permissionMode',
    'stopHookActive',
    'agentId',
    'agentType',
    'lastAssistantMessage',
  ],
  Stop: [
    'sessionId',
    'turnId',
    'transcriptPath',
    'cwd',
    'hookEventName',
    'model',
    'permissionMode',
    'stopHookActive',
    'lastAssistantMessage',
  ],
  SessionEnd: ['sessionId', 'transcriptPath', 'cwd', 'hookEventName', 'reason'],
  Interrupt: ['sessionId', 'turnId', 'transcriptPath', 'cwd', 'hookEventName', 'model', 'permissionMode'],
}

/** Sent as `null` when absent (Rust `NullableString`). */
const NULLABLE: ReadonlySet<Key> = new Set(['transcriptPath', 'agentTranscriptPath', 'lastAssistantMessage'])

/**
 * The exact stdin bytes Codex writes to a hook for `event`: compact JSON, keys in Codex's order, no trailing newline.
 * Throws when a field the event requires is missing.
 */
export function codexPayload(event: CodexEvent, fields: CodexPayloadFields): string {
  const payload: Record<string, unknown> = {}
  for (const slot of ORDER[event]) {
    if (slot === 'subagentSlot') {
      if (fields.subagent !== undefined) {
        payload.agent_id = fields.subagent.agentId
        payload.agent_type = fields.subagent.agentType
      }
      continue
    }
    const value = slot === 'hookEventName' ? event : fields[slot]
    if (value === undefined) {
      if (!NULLABLE.has(slot)) throw new TypeError(`codexPayload(${event}): missing ${slot}`)
      payload[SNAKE[slot]] = null
    } else {
      payload[SNAKE[slot]] = value
    }
  }
  return JSON.stringify(payload)
}
