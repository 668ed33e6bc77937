import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Wrapper `timeout 5 rm -f x` vs deny `Bash(rm:*)` (default mode): the wrapped command is denied.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Remove it. ${bash('timeout 5 rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command timeout 5 rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
