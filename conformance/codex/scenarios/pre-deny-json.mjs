import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse denies with JSON: the tool does not run, the output is the block text, no PostToolUse.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['UserPromptSubmit', 'PostToolUse', 'Stop']),
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('PreToolUse')] }],
  },
  handlers: {
    'PreToolUse.stdout': json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied by json hook' },
    }),
  },
  expect: {
    contains: ['Command blocked by PreToolUse hook: denied by json hook. Command: echo hello-from-tool'],
    hooks: ['UserPromptSubmit/h', 'PreToolUse/h', 'Stop/h'],
  },
}
