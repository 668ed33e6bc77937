import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): --add-dir of a directory outside the project, acceptEdits: a Write there.",
  hooks: recorders(),
  trusted: true,
  addDirs: ['@CASE@/extra'],
  files: { '@CASE@/extra/keep': '' },
  permissionMode: 'acceptEdits',
  prompt: `Write it. ${tool('Write', { file_path: '@CASE@/extra/w.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ['<file written: <CASE>/extra/w.txt>'],
    outcome: 'completed',
  },
}
