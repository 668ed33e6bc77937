import { type CodexEvent, eventKebab } from '../events.js'
import { rustDebugString } from './rust-text.js'

/**
 * The `function_call_output` of a call a PreToolUse hook blocked. `redactCommand` (codex-hooks.md §10 item 3,
 * opt-in) drops `. Command: <cmd>`, which leaks the raw command.
 */
export function preToolUseBlockText(reason: string, command: string, options: { redactCommand?: boolean } = {}): string {
  const text = `Command blocked by PreToolUse hook: ${reason}`
  return options.redactCommand === true ? text : `${text}. Command: ${command}`
}

/** Escapes a Stop / SubagentStop reason for `<hook_prompt>`: `&`, `<`, `>` only; quotes, newlines, non-ASCII stay. */
export function escapeHookPrompt(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/**
 * One `input_text` of the continuation message: `<hook_prompt hook_run_id="<runId>">` + escaped reason + `</hook_prompt>`.
 * The attribute also escapes `"` (as quick-xml's serializer does inside a double-quoted attribute); unverified
 * against Codex, and run ids (event, number, path, call id) rarely contain any of these characters.
 */
export function hookPromptText(runId: string, reason: string): string {
  const attribute = escapeHookPrompt(runId).replaceAll('"', '&quot;')
  return `<hook_prompt hook_run_id="${attribute}">${escapeHookPrompt(reason)}</hook_prompt>`
}

/**
 * The `function_call_output` of a call a PermissionRequest hook denied: the Rust Debug of a `CreateProcess { message }`
 * whose message is itself `Rejected(<Debug of the message>)`, so the message is escaped twice.
 * `toolName` is the model-facing tool name (`exec_command` in Codex; a kernel tool uses its own).
 */
export function permissionDeniedText(message: string, toolName = 'exec_command'): string {
  const inner = `Rejected(${rustDebugString(message)})`
  return `${toolName} failed: CreateProcess { message: ${rustDebugString(inner)} }`
}

/** `<event-kebab>:<displayOrder>:<sourcePath>`, plus `:<toolUseId>` for tool events (codex-hooks.md §9). */
export function hookRunId(event: CodexEvent, displayOrder: number, sourcePath: string, toolUseId?: string): string {
  const id = `${eventKebab(event)}:${displayOrder}:${sourcePath}`
  return toolUseId === undefined ? id : `${id}:${toolUseId}`
}
