import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation of s06: deny `Read(./.env)` with the sandbox on, bypassPermissions: the system grep (`command grep`, not Claude Code's own grep), its lines about `.env` only: `grep: ./.env: Permission denied`.",
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true }, permissions: { deny: ['Read(./.env)'] } },
  files: { '.env': 'SECRET=hunter2\n' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Search. ${bash('command grep -r SECRET . 2>&1 | command grep -F .env')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PostToolUse'),
    requests: 2,
    contains: ['grep: ./.env: Permission denied'],
    absent: ['hunter2'],
    outcome: 'completed',
  },
}
