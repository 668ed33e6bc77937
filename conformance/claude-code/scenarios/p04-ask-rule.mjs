import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Ask rule `Bash(git push:*)`, default mode: PermissionRequest fires without permission_suggestions; headless, the call is denied with "Claude requested permissions to use Bash, but you haven\'t granted it yet."',
  hooks: recorders(),
  settingsExtra: { permissions: { ask: ['Bash(git push:*)'] } },
  trusted: true,
  permissionMode: 'default',
  prompt: `Push. ${bash('git push origin main')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Claude requested permissions to use Bash, but you haven't granted it yet."],
    outcome: 'completed',
  },
}
