import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'UserPromptSubmit blocks the prompt: no model request at all; its context is recorded but unsent.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['SessionStart', 'PreToolUse', 'Stop', 'SessionEnd']),
    UserPromptSubmit: [{ hooks: [cmd('UserPromptSubmit')] }],
  },
  handlers: {
    'UserPromptSubmit.stdout': json({
      decision: 'block',
      reason: 'prompt blocked json',
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx alongside block' },
    }),
  },
  expect: { requests: 0 },
}
