import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description: 'sandbox.enabled, bypassPermissions: `touch` of a file in the project runs (sandboxed; the project is writable).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @PROJECT@/in.txt')}`,
  expect: { hooks: toolSeq('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
