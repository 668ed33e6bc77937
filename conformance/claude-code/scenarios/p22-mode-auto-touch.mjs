import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'auto: `touch` in the project runs without the classifier.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'auto',
  prompt: `Touch it. ${bash('touch @PROJECT@/t')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
