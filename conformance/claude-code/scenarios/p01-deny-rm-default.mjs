import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Bash deny rule in the legacy prefix form (`Bash(rm:*)`), default mode: `rm -f x` is denied with "Permission to use Bash with command … has been denied."; PreToolUse fires, no PermissionRequest.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  renderings: ['system', 'classic'],
  permissionMode: 'default',
  prompt: `Remove it. ${bash('rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
