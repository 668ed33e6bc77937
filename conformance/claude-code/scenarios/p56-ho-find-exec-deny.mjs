import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): `find . -name x -exec rm {} \\;` vs deny `Bash(rm:*)`, default mode.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Remove it. ${bash('find . -name x -exec rm {} \\;')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["find with '-exec' executes commands or modifies files — cannot be auto-allowed by a Bash(find:*) prefix rule"],
    outcome: 'completed',
  },
}
