import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a glob Read deny `Read(*.key)` vs a Read of a nested a/b/k.key, default mode.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(*.key)'] } },
  files: { 'a/b/k.key': 'K\n' },
  trusted: true,
  permissionMode: 'default',
  prompt: `Read it. ${tool('Read', { file_path: '@PROJECT@/a/b/k.key' })}`,
  expect: {
    hooks: turnWith(),
    requests: 2,
    contains: ['<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>'],
    outcome: 'completed',
  },
}
