import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Pipe `echo a | xargs rm -f` vs deny `Bash(rm:*)` (bypassPermissions): denied, the text names only the segment `xargs rm -f`.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Pipe it. ${bash('echo a | xargs rm -f')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command xargs rm -f has been denied.'],
    outcome: 'completed',
  },
}
