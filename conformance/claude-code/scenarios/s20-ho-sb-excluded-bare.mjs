import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: excludedCommands with the bare name `touch` matches only the bare command: `touch $HOME/x` stays sandboxed (`Read-only file system`), bypassPermissions.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, excludedCommands: ['touch'] } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @HOME@/x')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUseFailure'),
    requests: 2,
    contains: ["touch: cannot touch '<HOME>/x': Read-only file system"],
    outcome: 'completed',
  },
}
