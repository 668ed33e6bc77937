/** `permission_mode` values (claude-code-hooks.md §5). */
export type PermissionMode = 'default' | 'plan' | 'acceptEdits' | 'auto' | 'dontAsk' | 'bypassPermissions'

/** The fields every payload may carry before `hook_event_name`, in Claude Code's order. */
export interface CommonFields {
  sessionId: string
  transcriptPath: string
  cwd: string
  /** The turn's prompt id; absent before the session's first prompt. */
  promptId?: string | undefined
  permissionMode?: PermissionMode | undefined
  /** Events from inside a subagent, and SubagentStart/SubagentStop (which name their agent). */
  agent?: { id: string; type: string } | undefined
  /** The model's effort level; undefined when the model has none. */
  effort?: string | undefined
}

const WITH_PERMISSION_MODE: ReadonlySet<string> = new Set([
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'Interrupt',
])

/** Events whose payload carries `effort` (and whose hooks get `CLAUDE_EFFORT`) when the model has an effort level. */
export const EFFORT_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PermissionDenied',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Stop',
  'SubagentStop',
  'Interrupt',
])

/**
 * One event's payload with Claude Code's key order: `session_id`, `transcript_path`, `cwd`, then whichever apply of
 * `prompt_id`, `permission_mode`, `agent_id`, `agent_type`, `effort`, then `hook_event_name`, then the event's own
 * fields in the order given. Fields whose value is `undefined` are left out; `null` stays.
 */
export function claudePayload(event: string, common: CommonFields, fields: Record<string, unknown>): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    session_id: common.sessionId,
    transcript_path: common.transcriptPath,
    cwd: common.cwd,
  }
  if (common.promptId !== undefined) payload.prompt_id = common.promptId
  if (common.permissionMode !== undefined && WITH_PERMISSION_MODE.has(event)) payload.permission_mode = common.permissionMode
  if (common.agent !== undefined) {
    payload.agent_id = common.agent.id
    payload.agent_type = common.agent.type
  }
  if (common.effort !== undefined && EFFORT_EVENTS.has(event)) payload.effort = { level: common.effort }
  payload.hook_event_name = event
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) payload[key] = value
  return payload
}

/** The exact stdin bytes: one compact JSON line and one newline. */
export function payloadLine(payload: Record<string, unknown>): string {
  return `${JSON.stringify(payload)}\n`
}
