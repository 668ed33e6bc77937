import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    "sandbox.enabled, bypassPermissions: `touch` in $HOME (outside the project) fails inside the sandbox with the command's own `Read-only file system` (no annotation); PostToolUseFailure.",
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @HOME@/h.txt')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ["<tool failed: exit 1>\ntouch: cannot touch '<HOME>/h.txt': Read-only file system"],
    outcome: 'completed',
  },
}
