import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): allow `Bash(echo:*)`, default mode: `echo a > o.txt` in the project.",
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(echo:*)'] } },
  trusted: true,
  permissionMode: 'default',
  prompt: `Write it. ${bash('echo a > @PROJECT@/o.txt')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Output redirection to '<PROJECT>/o.txt' needs approval."],
    outcome: 'completed',
  },
}
