import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): ask rule `Read(./notes.txt)` vs a Read of it under bypassPermissions.",
  hooks: recorders(),
  settingsExtra: { permissions: { ask: ['Read(./notes.txt)'] } },
  files: { 'notes.txt': 'N\n' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Read it. ${tool('Read', { file_path: '@PROJECT@/notes.txt' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Claude requested permissions to read from <PROJECT>/notes.txt, but you haven't granted it yet."],
    outcome: 'completed',
  },
}
