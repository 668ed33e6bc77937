import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Wrapper `nohup rm -f x` vs deny `Bash(rm:*)` (bypassPermissions): denied.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('nohup rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command nohup rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
