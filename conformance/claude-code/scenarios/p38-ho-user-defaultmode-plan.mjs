import { recorders, tool, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation (written without reading the kernel\'s implementation): `defaultMode: "plan"` in user settings, no mode flag: a Write in the project.',
  hooks: recorders(),
  trusted: true,
  userSettings: { permissions: { defaultMode: 'plan' } },
  permissionMode: null,
  prompt: `Write it. ${tool('Write', { file_path: '@PROJECT@/w.txt', content: 'x' })}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ['Cannot write to <PROJECT>/w.txt while in plan mode.'],
    outcome: 'completed',
  },
}
