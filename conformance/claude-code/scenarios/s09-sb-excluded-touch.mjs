import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description: 'sandbox.excludedCommands `touch:*`, bypassPermissions: `touch` in $HOME runs outside the sandbox (the file is created).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, excludedCommands: ['touch:*'] } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @HOME@/x')}`,
  expect: { hooks: toolSeq('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
