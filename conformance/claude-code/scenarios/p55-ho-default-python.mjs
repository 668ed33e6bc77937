import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation (written without reading the kernel\'s implementation): default mode, no rules: `python3 -c "print(1)"`.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'default',
  prompt: `Run it. ${bash('python3 -c "print(1)"')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ['This command requires approval'],
    outcome: 'completed',
  },
}
