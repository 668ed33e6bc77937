import { recorders, TOOL_EVENTS, tool, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.enabled, default mode: a Bash call with `dangerouslyDisableSandbox: true` is asked about (`Run outside of the sandbox`, PermissionRequest); -p denies it.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Touch it. ${tool('Bash', { command: 'touch @PROJECT@/d.txt', dangerouslyDisableSandbox: true })}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ['Run outside of the sandbox'],
    outcome: 'completed',
  },
}
