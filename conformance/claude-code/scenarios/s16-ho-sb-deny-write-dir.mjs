import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: sandbox.filesystem.denyWrite `./protected` (relative to the project), bypassPermissions: `touch` in it → `Read-only file system`.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, filesystem: { denyWrite: ['./protected'] } } },
  files: { 'protected/.keep': '' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @PROJECT@/protected/f')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ["touch: cannot touch '<PROJECT>/protected/f': Read-only file system"],
    outcome: 'completed',
  },
}
