import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description: 'sandbox.filesystem.denyRead `~/secret`, bypassPermissions: `cat` of it fails with `Permission denied`.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, filesystem: { denyRead: ['~/secret'] } } },
  files: { '@HOME@/secret': 's3cret-home\n' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Show it. ${bash('cat @HOME@/secret')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ['<tool failed: exit 1>\ncat: <HOME>/secret: Permission denied'],
    absent: ['s3cret-home'],
    outcome: 'completed',
  },
}
