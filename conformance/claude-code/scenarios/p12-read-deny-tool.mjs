import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Read deny `Read(./.env)` vs a Read tool call of the project's .env (default mode): denied before any hook, `<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>`.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(./.env)'] } },
  files: { '.env': 'SECRET=1\n' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Read it. ${tool('Read', { file_path: '@PROJECT@/.env' })}`,
  expect: {
    hooks: turnWith(),
    requests: 2,
    contains: ['<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>'],
    outcome: 'completed',
  },
}
