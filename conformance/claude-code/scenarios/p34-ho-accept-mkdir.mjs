import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): acceptEdits: `mkdir -p d/e` (absolute, in the project).",
  hooks: recorders(),
  trusted: true,
  permissionMode: 'acceptEdits',
  prompt: `Make it. ${bash('mkdir -p @PROJECT@/d/e')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
