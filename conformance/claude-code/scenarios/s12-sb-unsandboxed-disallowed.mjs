import { recorders, TOOL_EVENTS, tool, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.allowUnsandboxedCommands: false, bypassPermissions: `dangerouslyDisableSandbox: true` is ignored; `touch` in $HOME stays sandboxed (`Read-only file system`).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, allowUnsandboxedCommands: false } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${tool('Bash', { command: 'touch @HOME@/d.txt', dangerouslyDisableSandbox: true })}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ["touch: cannot touch '<HOME>/d.txt': Read-only file system"],
    outcome: 'completed',
  },
}
