import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'PostToolUse block + additionalContext: the context message, then the output replaced by the reason.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['PreToolUse', 'Stop']),
    PostToolUse: [{ matcher: 'Bash', hooks: [cmd('PostToolUse')] }],
  },
  handlers: {
    'PostToolUse.stdout': json({
      decision: 'block',
      reason: 'post block reason',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'post ctx with block' },
    }),
  },
  expect: { contains: ['post block reason', 'post ctx with block'] },
}
