import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'acceptEdits: `touch` of a file in the project runs.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'acceptEdits',
  prompt: `Touch it. ${bash('touch @PROJECT@/t')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
