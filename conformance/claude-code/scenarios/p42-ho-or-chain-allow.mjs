import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): `touch a || rm -f x` vs allow `Bash(touch:*)` only (trusted, default mode).",
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Run it. ${bash('touch @PROJECT@/a || rm -f @PROJECT@/x')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["rm in '<PROJECT>/x' needs approval."],
    outcome: 'completed',
  },
}
