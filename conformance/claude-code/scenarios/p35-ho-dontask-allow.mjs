import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): dontAsk with allow `Bash(touch:*)`: `touch` in the project.",
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  trusted: true,
  permissionMode: 'dontAsk',
  prompt: `Touch it. ${bash('touch @PROJECT@/t')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
