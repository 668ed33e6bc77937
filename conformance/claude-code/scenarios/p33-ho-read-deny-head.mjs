import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): Read deny `Read(./secret.txt)` vs `head -n 1 secret.txt` in Bash, bypassPermissions.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Read(./secret.txt)'] } },
  files: { 'secret.txt': 'S\n' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Show it. ${bash('head -n 1 secret.txt')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command head -n 1 secret.txt has been denied.'],
    outcome: 'completed',
  },
}
