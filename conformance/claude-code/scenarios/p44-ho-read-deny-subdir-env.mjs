import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): `Read(./.env)` vs a Read of sub/.env (another .env below the project), default mode.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(./.env)'] } },
  files: { 'sub/.env': 'S=1\n' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Read it. ${tool('Read', { file_path: '@PROJECT@/sub/.env' })}`,
  expect: {
    hooks: turnWith(),
    requests: 2,
    contains: ['<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>'],
    outcome: 'completed',
  },
}
