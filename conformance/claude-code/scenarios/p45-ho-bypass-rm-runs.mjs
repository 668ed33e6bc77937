import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): bypassPermissions, no rules: `rm -f x` of a file in the project (a forced removal) runs.",
  hooks: recorders(),
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('rm -f @PROJECT@/x')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
