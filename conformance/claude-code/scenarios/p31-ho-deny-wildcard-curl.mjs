import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation (written without reading the kernel's implementation): a wildcard-form deny `Bash(curl *)` vs `curl -s http://127.0.0.1:9/`, bypassPermissions.",
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(curl *)'] } },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Fetch it. ${bash('curl -s http://127.0.0.1:9/')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command curl -s http://127.0.0.1:9/ has been denied.'],
    outcome: 'completed',
  },
}
