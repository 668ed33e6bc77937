import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Layering: a local-settings ask `Bash(touch:*)` beats a project allow (trusted, default mode): the ask text.',
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  trusted: true,
  localSettings: { permissions: { ask: ['Bash(touch:*)'] } },
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Claude requested permissions to use Bash, but you haven't granted it yet."],
    outcome: 'completed',
  },
}
