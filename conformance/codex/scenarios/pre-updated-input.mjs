import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'PreToolUse allow + updatedInput rewrites the command: the rewritten command runs, PostToolUse sees it, the model history keeps the original call.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['PostToolUse', 'Stop']),
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('PreToolUse')] }],
  },
  handlers: {
    'PreToolUse.stdout': json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten-by-hook' } },
    }),
  },
  expect: { contains: ['rewritten-by-hook'] },
}
