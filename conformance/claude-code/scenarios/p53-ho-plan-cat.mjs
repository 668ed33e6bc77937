import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: "Held-out variation (written without reading the kernel's implementation): plan: `cat` of a project file.",
  hooks: recorders(),
  files: { 'f.txt': 'hello\n' },
  trusted: true,
  permissionMode: 'plan',
  prompt: `Show it. ${bash('cat @PROJECT@/f.txt')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['hello'], outcome: 'completed' },
}
