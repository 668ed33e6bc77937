import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Untrusted workspace: the project\'s `allow: ["Bash(touch:*)"]` is ignored, so an in-project `touch` asks (default mode).',
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["touch in '<PROJECT>/a' needs approval."],
    outcome: 'completed',
  },
}
