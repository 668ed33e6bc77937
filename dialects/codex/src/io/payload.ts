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
  /** PreModelRequest, PostModelRequest: `sampling` (a compaction's request is `foreground_compaction`). */
  kind?: string | undefined
  /** PreModelRequest, PostModelRequest: one id per model request, the same for its retries. */
  requestId?: string | undefined
  /** PreModelRequest, PostModelRequest: 1, then 2+ for a retry of the same request. */
  attemptNumber?: number | undefined
  /** PreModelRequest, PostModelRequest: the thread the request is for (`session_id` is the root thread). */
  threadId?: string | undefined
  /** PostModelRequest: `completed`, `failed` or `cancelled`. */
  status?: string | undefined
  /** PostModelRequest: the failure's text, else `null`. */
  error?: string | null | undefined
  /** PostModelRequest: Codex's token counts of a completed request, else `null`. */
  tokenUsage?: CodexTokenUsage | null | undefined
  /** PostModelRequest: the provider's response id, else `null`. */
  responseId?: string | null | undefined
  /**
   * Turn events inside a subagent (UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact)
   * gain `agent_id`, `agent_type` right after `turn_id`; PreModelRequest and PostModelRequest before `hook_event_name`.
   * Ignored for other events, which never fire inside a subagent.
   */
  subagent?: { agentId: string; agentType: string } | undefined
}

/** `token_usage` as Codex reports it: every count present, 0 where the provider reported none. */
export interface CodexTokenUsage {
  input_tokens: number
  cached_input_tokens: number
  cache_write_input_tokens: number
  output_tokens: number
  reasoning_output_tokens: number
  total_tokens: number
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
  kind: 'kind',
  requestId: 'request_id',
  attemptNumber: 'attempt_number',
  threadId: 'thread_id',
  status: 'status',
  error: 'error',
  tokenUsage: 'token_usage',
  responseId: 'response_id',
  subagent: 'subagent',
}

// 'subagent' marks where a subagent's agent_id, agent_type go; the events without it never fire inside one.
type Slot = Key | 'subagentSlot'

const TURN_HEAD: Slot[] = ['sessionId', 'turnId', 'subagentSlot', 'transcriptPath', 'cwd', 'hookEventName', 'model']

/**
 * The model-request events lead with the request (observed with Codex 0.169.0 and 0.171.0); inside a subagent
 * `agent_id, agent_type` come right before `hook_event_name` (0.171.0), `thread_id` and `transcript_path` are the
 * subagent's.
 */
const MODEL_REQUEST_HEAD: Slot[] = [
  'kind',
  'requestId',
  'attemptNumber',
  'sessionId',
  'threadId',
  'turnId',
  'cwd',
  'transcriptPath',
  'model',
  'subagentSlot',
  'hookEventName',
]

/** Codex's field order per event (codex-hooks.md §5.2, §5.3). */
const ORDER: Record<CodexEvent, Slot[]> = {
  PreModelRequest: MODEL_REQUEST_HEAD,
  PostModelRequest: [...MODEL_REQUEST_HEAD, 'status', 'error', 'tokenUsage', 'responseId'],
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
const NULLABLE: ReadonlySet<Key> = new Set([
  'transcriptPath',
  'agentTranscriptPath',
  'lastAssistantMessage',
  'error',
  'tokenUsage',
  'responseId',
])

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
