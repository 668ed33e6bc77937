import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Layering: a user-settings deny `Bash(touch:*)` beats a project allow of the same rule (trusted, default mode).',
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  trusted: true,
  userSettings: { permissions: { deny: ['Bash(touch:*)'] } },
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command touch <PROJECT>/a has been denied.'],
    outcome: 'completed',
  },
}
