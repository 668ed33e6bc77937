import type { CodexEvent } from '../events.js'

// Every failure text a run report can carry, in one place. Never model-visible.
// [obs] = seen from Codex 0.169.0; [src] = openai/codex source; [unverified] = chosen here.

/** Exit 0, stdout that starts with `{`/`[` but is not the event's output object. */
export const INVALID_JSON_TEXT: Record<Exclude<CodexEvent, 'PreModelRequest' | 'PostModelRequest'>, string> = {
  PreToolUse: 'hook returned invalid pre-tool-use JSON output', // [obs]
  PermissionRequest: 'hook returned invalid permission-request JSON output', // [src]
  PostToolUse: 'hook returned invalid post-tool-use JSON output', // [src]
  PreCompact: 'hook returned invalid PreCompact hook JSON output', // [src]
  PostCompact: 'hook returned invalid PostCompact hook JSON output', // [src]
  SessionStart: 'hook returned invalid session start JSON output', // [obs]
  SessionEnd: 'hook returned invalid session end JSON output', // [unverified]; unused: SessionEnd output is ignored
  UserPromptSubmit: 'hook returned invalid user prompt submit JSON output', // [obs]
  SubagentStart: 'hook returned invalid subagent start JSON output', // [src]
  SubagentStop: 'hook returned invalid subagent stop hook JSON output', // [src]
  Stop: 'hook returned invalid stop hook JSON output', // [obs]
  Interrupt: 'hook returned invalid interrupt hook JSON output', // [src]
}

/** Exit 0 with plain (non-JSON) stdout on Interrupt [src]. Stop and SubagentStop use their INVALID_JSON_TEXT. */
export const INTERRUPT_NON_JSON_TEXT = 'Interrupt hook returned non-JSON stdout'

/** Exit 2 with empty stderr, for the events where exit 2 means something. Elsewhere exit 2 is `hook exited with code 2`. */
export const EXIT2_WITHOUT_REASON_TEXT: Partial<Record<CodexEvent, string>> = {
  PreToolUse: 'PreToolUse hook exited with code 2 but did not write a blocking reason to stderr', // [obs]
  PermissionRequest: 'PermissionRequest hook exited with code 2 but did not write a denial reason to stderr', // [src]
  PostToolUse: 'PostToolUse hook exited with code 2 but did not write feedback to stderr', // [src]
  UserPromptSubmit: 'UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr', // [src]
  Stop: 'Stop hook exited with code 2 but did not write a continuation prompt to stderr', // [src]
  SubagentStop: 'SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr', // [src]
}

export const exitedWithCodeText = (code: number): string => `hook exited with code ${code}` // [obs]
export const timedOutText = (timeoutSec: number): string => `hook timed out after ${timeoutSec}s` // [obs]

/** No exit code (killed by a signal) [src]. The compaction events word it differently [src]. */
export const NO_EXIT_CODE_TEXT = 'hook exited without a status code'
export const COMPACT_NO_EXIT_CODE_TEXT = 'hook process terminated without an exit code'

/** `decision:block` without a non-empty `reason` [obs for Stop, src for the others]. */
export const blockWithoutReasonText = (event: CodexEvent): string => `${event} hook returned decision:block without a non-empty reason`

/** The `stop` entry when `continue:false` comes without `stopReason`, on the events that always write one [src]. */
export const stoppedExecutionText = (event: CodexEvent): string => `${event} hook stopped execution`

export const PRE_TOOL_USE_TEXTS = {
  continueFalse: 'PreToolUse hook returned unsupported continue:false', // [obs]
  stopReason: 'PreToolUse hook returned unsupported stopReason', // [src]
  suppressOutput: 'PreToolUse hook returned unsupported suppressOutput', // [src]
  updatedInputWithoutAllow: 'PreToolUse hook returned updatedInput without permissionDecision:allow', // [obs]
  bareAllow: 'PreToolUse hook returned unsupported permissionDecision:allow', // [obs]
  ask: 'PreToolUse hook returned unsupported permissionDecision:ask', // [obs]
  denyWithoutReason: 'PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason', // [obs]
  reasonWithoutDecision: 'PreToolUse hook returned permissionDecisionReason without permissionDecision', // [src]
  approve: 'PreToolUse hook returned unsupported decision:approve', // [src]
  legacyReasonWithoutDecision: 'PreToolUse hook returned reason without decision', // [src]
} as const

export const PERMISSION_REQUEST_TEXTS = {
  continueFalse: 'PermissionRequest hook returned unsupported continue:false', // [src]
  stopReason: 'PermissionRequest hook returned unsupported stopReason', // [src]
  suppressOutput: 'PermissionRequest hook returned unsupported suppressOutput', // [src]
  updatedInput: 'PermissionRequest hook returned unsupported updatedInput', // [src]
  updatedPermissions: 'PermissionRequest hook returned unsupported updatedPermissions', // [src]
  interrupt: 'PermissionRequest hook returned unsupported interrupt:true', // [src]
  /** The deny message when the hook gives none [src]. */
  defaultDenyMessage: 'PermissionRequest hook denied approval',
} as const

export const POST_TOOL_USE_TEXTS = {
  suppressOutput: 'PostToolUse hook returned unsupported suppressOutput', // [src]
  updatedMCPToolOutput: 'PostToolUse hook returned unsupported updatedMCPToolOutput', // [src]
  reasonWithoutDecision: 'PostToolUse hook returned reason without decision', // [obs]
} as const
