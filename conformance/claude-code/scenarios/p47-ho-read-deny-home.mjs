import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): `Read(~/secret)` (home-anchored) vs a Read of $HOME/secret, default mode.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(~/secret)'] } },
  files: { '@HOME@/secret': 'S\n' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Read it. ${tool('Read', { file_path: '@HOME@/secret' })}`,
  expect: {
    hooks: turnWith(),
    requests: 2,
    contains: ['<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>'],
    outcome: 'completed',
  },
}
