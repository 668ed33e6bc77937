import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation (written without reading the kernel\'s implementation): `eval "rm -f x"` vs deny `Bash(rm:*)`, bypassPermissions.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('eval "rm -f @PROJECT@/x"')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
