/**
 * Codex's hook events, in the fixed order Codex numbers them within a file (display order): the field order of its
 * `HookEventsToml`, where the two model-request events come first.
 */
export const CODEX_EVENTS = [
  'PreModelRequest',
  'PostModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
] as const
export type CodexEvent = (typeof CODEX_EVENTS)[number]

/** snake_case label used in trust keys and hashes: `pre_tool_use`. */
export function eventLabel(event: CodexEvent): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase()
}

/** kebab-case name used in run ids: `pre-tool-use`. */
export function eventKebab(event: CodexEvent): string {
  return eventLabel(event).replaceAll('_', '-')
}

/** camelCase name used in run reports: `preToolUse`. */
export function eventCamel(event: CodexEvent): string {
  return event[0]!.toLowerCase() + event.slice(1)
}

/** Events whose matcher Codex ignores (normalized to null, even when invalid). */
export const MATCHERLESS_EVENTS: ReadonlySet<CodexEvent> = new Set([
  'PreModelRequest',
  'PostModelRequest',
  'UserPromptSubmit',
  'Stop',
  'Interrupt',
])

export function isCodexEvent(value: string): value is CodexEvent {
  return (CODEX_EVENTS as readonly string[]).includes(value)
}
