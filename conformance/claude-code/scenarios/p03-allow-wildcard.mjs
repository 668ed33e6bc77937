import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Allow rule in the wildcard form `Bash(git * main)`, default mode, trusted: `git checkout main` is allowed (it runs and fails: not a repository).',
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(git * main)'] } },
  trusted: true,
  permissionMode: 'default',
  prompt: `Check out main. ${bash('git checkout main')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUseFailure'), requests: 2, contains: ['<tool failed: exit 128>'], outcome: 'completed' },
}
