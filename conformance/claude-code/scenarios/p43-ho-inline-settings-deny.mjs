import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a deny `Bash(rm:*)` given as an inline JSON --settings value, bypassPermissions: `rm -f x`.",
  hooks: recorders(),
  files: { x: '' },
  trusted: true,
  settingsFlagExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  settingsFlagInline: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
