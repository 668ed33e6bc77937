import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a subshell `(rm -f x)` vs deny `Bash(rm:*)`, bypassPermissions.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('(rm -f @PROJECT@/x)')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command (rm -f <PROJECT>/x) has been denied.'],
    outcome: 'completed',
  },
}
