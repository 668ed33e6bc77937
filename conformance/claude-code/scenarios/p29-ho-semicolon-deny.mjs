import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): `echo start; rm -f x; echo end` vs deny `Bash(rm:*)`, default mode.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Run it. ${bash('echo start; rm -f @PROJECT@/x; echo end')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command echo start; rm -f <PROJECT>/x; echo end has been denied.'],
    outcome: 'completed',
  },
}
