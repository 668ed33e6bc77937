import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description: 'acceptEdits: a Write in the project runs.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'acceptEdits',
  prompt: `Write it. ${tool('Write', { file_path: '@PROJECT@/w.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ['<file written: <PROJECT>/w.txt>'],
    outcome: 'completed',
  },
}
