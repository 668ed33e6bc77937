import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    '`defaultMode: "bypassPermissions"` in project settings (no mode flag) is silently ignored: the mode stays default and an in-project `touch` asks.',
  hooks: recorders(),
  settingsExtra: { permissions: { defaultMode: 'bypassPermissions' } },
  trusted: true,
  permissionMode: null,
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["touch in '<PROJECT>/a' needs approval."],
    outcome: 'completed',
  },
}
