import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    '`permissions.disableBypassPermissionsMode: "disable"` (project) with `--permission-mode bypassPermissions`: silently falls back to default; `touch` asks.',
  hooks: recorders(),
  settingsExtra: { permissions: { disableBypassPermissionsMode: 'disable' } },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["touch in '<PROJECT>/a' needs approval."],
    outcome: 'completed',
  },
}
