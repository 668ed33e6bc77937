import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a local-settings allow `Bash(touch:*)` in an untrusted workspace, default mode.",
  hooks: recorders(),
  localSettings: { permissions: { allow: ['Bash(touch:*)'] } },
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/a')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
