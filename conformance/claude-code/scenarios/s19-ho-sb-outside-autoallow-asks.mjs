import { recorders, TOOL_EVENTS, tool, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: autoAllowBashIfSandboxed: true, default mode: a read-only command with `dangerouslyDisableSandbox: true` is still asked about (`Run outside of the sandbox`).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Look. ${tool('Bash', { command: 'echo hi', dangerouslyDisableSandbox: true })}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ['Run outside of the sandbox'],
    outcome: 'completed',
  },
}
