import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation (written without reading the kernel\'s implementation): `disableBypassPermissionsMode: "disable"` at the top level of the project settings (not under permissions) with --permission-mode bypassPermissions: `touch` in the project.',
  hooks: recorders(),
  trusted: true,
  settingsExtra: { disableBypassPermissionsMode: 'disable' },
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
