import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): acceptEdits: a Write outside the working directories.",
  hooks: recorders(),
  trusted: true,
  permissionMode: 'acceptEdits',
  prompt: `Write it. ${tool('Write', { file_path: '@CASE@/o.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Claude requested permissions to write to <CASE>/o.txt, but you haven't granted it yet."],
    outcome: 'completed',
  },
}
