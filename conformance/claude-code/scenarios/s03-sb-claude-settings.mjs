import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.enabled, bypassPermissions: `.claude/settings.json` of the project stays read-only inside the sandbox (`touch` → `Read-only file system`).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @PROJECT@/.claude/settings.json')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ["touch: cannot touch '<PROJECT>/.claude/settings.json': Read-only file system"],
    outcome: 'completed',
  },
}
