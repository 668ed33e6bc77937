/** Every hook event Claude Code 2.1.336 knows (the Agent SDK's list), in its documented order. */
export const CLAUDE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'Interrupt',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
  'PreModelSwitch',
  'PostModelSwitch',
] as const
export type ClaudeEvent = (typeof CLAUDE_EVENTS)[number]

export function isClaudeEvent(value: string): value is ClaudeEvent {
  return (CLAUDE_EVENTS as readonly string[]).includes(value)
}

/** The events the dialect runs, and the kernel point each one is on. */
export const PRODUCED_EVENTS = {
  SessionStart: 'agent/session-start',
  SessionEnd: 'agent/session-end',
  UserPromptSubmit: 'agent/pre-step',
  PreToolUse: 'tools/pre-execute',
  PermissionRequest: 'tools/permission-request',
  PermissionDenied: 'tools/pre-execute',
  PostToolUse: 'tools/post-execute',
  PostToolUseFailure: 'tools/post-execute',
  PostToolBatch: 'agent/pre-step',
  Stop: 'agent/turn-stopping',
  StopFailure: 'session/event',
  Interrupt: 'agent/interrupt',
  SubagentStart: 'agent/subagent-start',
  SubagentStop: 'agent/subagent-stop',
  PreCompact: 'agent/pre-compact',
  PostCompact: 'agent/post-compact',
  Notification: 'tools/permission-request',
  MessageDisplay: 'session/event',
} as const satisfies Partial<Record<ClaudeEvent, string>>
export type ProducedEvent = keyof typeof PRODUCED_EVENTS

/** Events Claude Code knows that the kernel never produces, and why. Their handlers load, are listed, and never run. */
export const UNPRODUCED_EVENTS: Readonly<Record<Exclude<ClaudeEvent, ProducedEvent>, string>> = {
  UserPromptExpansion: 'the kernel has no slash commands',
  InstructionsLoaded: 'the kernel loads no CLAUDE.md files',
  CwdChanged: "the kernel's shell tool starts a fresh shell per call, so the session's cwd never changes",
  Setup: 'the kernel has no --init/--maintenance mode',
  ConfigChange: 'the configuration is read once, at session start',
  TeammateIdle: 'the kernel has no agent teams',
  TaskCreated: 'the kernel has no task list',
  TaskCompleted: 'the kernel has no task list',
  Elicitation: 'the kernel has no MCP client',
  ElicitationResult: 'the kernel has no MCP client',
  WorktreeCreate: 'the kernel creates no git worktrees',
  WorktreeRemove: 'the kernel creates no git worktrees',
  FileChanged: 'the kernel watches no files',
  DirectoryAdded: 'the kernel has no /add-dir',
  PreSkillShellCommand: 'the kernel has no skills',
  PreModelSwitch: 'the kernel has no /model switch',
  PostModelSwitch: 'the kernel has no /model switch',
}

export function isProducedEvent(value: string): value is ProducedEvent {
  return Object.hasOwn(PRODUCED_EVENTS, value)
}

/** Events whose matcher Claude Code ignores (one given is ignored). */
export const MATCHERLESS_EVENTS: ReadonlySet<string> = new Set([
  'UserPromptSubmit',
  'Stop',
  'PostToolBatch',
  'CwdChanged',
  'MessageDisplay',
])

/** Events whose matcher is the tool name and that take the `if` permission-rule field. */
export const TOOL_EVENTS: ReadonlySet<string> = new Set([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
])

/** Events whose exact-name matcher is the narrower set (no `-`, space or `,`). */
export const NARROW_MATCHER_EVENTS: ReadonlySet<string> = new Set(['FileChanged', 'StopFailure'])
