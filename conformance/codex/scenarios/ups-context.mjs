import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'UserPromptSubmit additionalContext from two handlers: two developer messages right after the prompt, in display order.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['Stop']),
    UserPromptSubmit: [{ hooks: [cmd('UserPromptSubmit', 'a'), cmd('UserPromptSubmit', 'b')] }],
  },
  handlers: {
    'UserPromptSubmit-a.stdout': json({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-CTX: extra context' },
    }),
    'UserPromptSubmit-b.stdout': json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'UPS-CTX: second' } }),
  },
  expect: { contains: ['UPS-CTX: extra context', 'UPS-CTX: second'] },
}
