import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: deny `Read(./.env)` with the sandbox on, bypassPermissions: python reading `.env` gets `PermissionError: [Errno 13] Permission denied`.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true }, permissions: { deny: ['Read(./.env)'] } },
  files: { '.env': 'SECRET=hunter2\n' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Read it. ${bash(`python3 -c "print(open('.env').read())" 2>&1 | tail -1`)}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ["PermissionError: [Errno 13] Permission denied: '.env'"],
    absent: ['hunter2'],
    outcome: 'completed',
  },
}
