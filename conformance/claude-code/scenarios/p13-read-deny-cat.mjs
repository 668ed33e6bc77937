import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Read deny `Read(./.env)` vs `cat .env` in Bash (bypassPermissions): the Bash command is denied.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(./.env)'] } },
  files: { '.env': 'SECRET=1\n' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Show it. ${bash('cat .env')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command cat .env has been denied.'],
    outcome: 'completed',
  },
}
