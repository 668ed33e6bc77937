// Small helpers for scenario files (scenarios/*.mjs).

/** One handler: `@HOOK@ <event> <tag>` (lib/hook.sh records, then replies from the scenario's `handlers`). */
export function cmd(event, tag = 'h', extra = {}) {
  return { type: 'command', command: `@HOOK@ ${event} ${tag}`, ...extra }
}

/** One group per event with a single recording handler tagged `h` (and no matcher). */
export function recordEvents(events) {
  return Object.fromEntries(events.map((event) => [event, [{ hooks: [cmd(event)] }]]))
}

/** The events `codex exec` fires in a plain one-turn run. */
export const EXEC_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']

/** Every event key Codex accepts. */
export const ALL_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
  'Interrupt',
]

/** The default plan: a shell call, then (once the output is back) a message. */
export const AUTO = [{ kind: 'auto', cmd: 'echo hello-from-tool' }]

export const json = (value) => JSON.stringify(value)

/** Plan steps of fake-responses-server.mjs that wrap another step (its format uses a `then` key). */
export function delayed(ms, step) {
  // biome-ignore lint/suspicious/noThenProperty: the fake server's plan format
  return { kind: 'delay', ms, then: step }
}
export function withUsage(totalTokens, step) {
  // biome-ignore lint/suspicious/noThenProperty: the fake server's plan format
  return { kind: 'usage', total_tokens: totalTokens, then: step }
}
