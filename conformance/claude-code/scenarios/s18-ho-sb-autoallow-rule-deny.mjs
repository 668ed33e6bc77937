import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    'Held-out variation: autoAllowBashIfSandboxed: true does not override a deny rule: `Bash(rm:*)` still denies `rm -f` in default mode (PreToolUse only).',
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true }, permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'default',
  prompt: `Remove it. ${bash('rm -f @PROJECT@/x')}`,
  expect: {
    hooks: toolSeq('PreToolUse'),
    requests: 2,
    contains: ['Permission to use Bash with command rm -f <PROJECT>/x has been denied.'],
    outcome: 'completed',
  },
}
