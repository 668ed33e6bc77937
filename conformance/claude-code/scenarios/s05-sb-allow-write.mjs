import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description: 'sandbox.filesystem.allowWrite `~/extra`, bypassPermissions: `touch` in that folder (outside the project) runs.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, filesystem: { allowWrite: ['~/extra'] } } },
  files: { '@HOME@/extra/.keep': '' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @HOME@/extra/f && echo made')}`,
  expect: { hooks: toolSeq('PreToolUse', 'PostToolUse'), requests: 2, contains: ['made'], outcome: 'completed' },
}
