import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Edit deny `Edit(./src/**)` vs a Write of src/a.ts (default mode): an Edit rule covers Write; denied before any hook.',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Edit(./src/**)'] } },
  files: { 'src/keep.ts': '' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Write it. ${tool('Write', { file_path: '@PROJECT@/src/a.ts', content: 'x' })}`,
  expect: {
    hooks: turnWith(),
    requests: 2,
    contains: ['<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>'],
    outcome: 'completed',
  },
}
