import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'sandbox.enabled without autoAllowBashIfSandboxed (default false), default mode: `touch` in the project is asked as without a sandbox (`touch in … needs approval …`); -p denies the ask.',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Touch it. ${bash('touch @PROJECT@/in.txt')}`,
  expect: {
    hooks: toolSeq('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: ["touch in '<PROJECT>/in.txt' needs approval."],
    outcome: 'completed',
  },
}
