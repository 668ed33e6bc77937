import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Malformed deny rules (`Bash(rm`, `Bash(rm))`, `NoSuchTool`, `Read([)`, `Bash()`, `Bash(:*)`, "", 42) beside a valid `Bash(rm:*)` (bypassPermissions): skipped silently; the valid rule still denies.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm', 'Bash(rm))', 'NoSuchTool', 'Read([)', 'Bash()', 'Bash(:*)', '', 42, 'Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
