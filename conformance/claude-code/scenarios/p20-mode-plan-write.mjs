import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description: 'plan: a Write is denied with "Cannot write to … while in plan mode." (PermissionRequest, no suggestions).',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'plan',
  prompt: `Write it. ${tool('Write', { file_path: '@PROJECT@/w.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ['Cannot write to <PROJECT>/w.txt while in plan mode.'],
    outcome: 'completed',
  },
}
