import { recorders, TOOL_EVENTS, tool, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.enabled, bypassPermissions: a Bash call with `dangerouslyDisableSandbox: true` runs outside the sandbox without asking (`touch` in $HOME creates the file).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${tool('Bash', { command: 'touch @HOME@/d.txt && echo made', dangerouslyDisableSandbox: true })}`,
  expect: { hooks: toolSeq('PreToolUse', 'PostToolUse'), requests: 2, contains: ['made'], outcome: 'completed' },
}
