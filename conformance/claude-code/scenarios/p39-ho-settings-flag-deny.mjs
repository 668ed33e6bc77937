import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a deny `Bash(touch:*)` in a --settings file vs a project allow of the same rule (trusted, default mode).",
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  trusted: true,
  settingsFlagExtra: { permissions: { deny: ['Bash(touch:*)'] } },
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command touch <PROJECT>/a has been denied.'],
    outcome: 'completed',
  },
}
