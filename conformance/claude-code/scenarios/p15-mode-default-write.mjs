import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Default mode, no rules: a Write in the project asks (PermissionRequest with the setMode acceptEdits suggestion) and is denied with "Claude requested permissions to write to …".',
  hooks: recorders(),
  trusted: true,
  renderings: ['system', 'classic'],
  permissionMode: 'default',
  prompt: `Write it. ${tool('Write', { file_path: '@PROJECT@/w.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["Claude requested permissions to write to <PROJECT>/w.txt, but you haven't granted it yet."],
    outcome: 'completed',
  },
}
