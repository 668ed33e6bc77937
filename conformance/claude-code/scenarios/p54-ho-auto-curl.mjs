import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: "Held-out variation (written without reading the kernel's implementation): auto: `curl -s http://127.0.0.1:9/`.",
  hooks: recorders(),
  trusted: true,
  permissionMode: 'auto',
  prompt: `Fetch it. ${bash('curl -s http://127.0.0.1:9/')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionDenied'),
    requests: 2,
    contains: ['Auto mode is unavailable: its safety check does not run for this session, so Bash was not run.'],
    outcome: 'completed',
  },
}
