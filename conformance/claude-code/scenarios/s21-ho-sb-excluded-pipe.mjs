import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: excludedCommands `touch:*`, bypassPermissions: `touch $HOME/x | cat` (a pipe into a command not excluded) stays sandboxed (`Read-only file system`).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, excludedCommands: ['touch:*'] } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @HOME@/x 2>&1 | cat')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ["touch: cannot touch '<HOME>/x': Read-only file system"],
    outcome: 'completed',
  },
}
