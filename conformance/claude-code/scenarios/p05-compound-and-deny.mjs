import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Compound `echo a && rm -f x` vs deny `Bash(rm:*)` (bypassPermissions): the whole command is denied, named whole in the text.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Run both. ${bash('echo a && rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command echo a && rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
