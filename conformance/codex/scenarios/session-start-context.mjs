import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'SessionStart additionalContext: a developer message before the first user prompt.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['UserPromptSubmit', 'Stop']),
    SessionStart: [{ matcher: 'startup', hooks: [cmd('SessionStart')] }],
  },
  handlers: {
    'SessionStart.stdout': json({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'SS-CTX: session context' } }),
  },
  expect: { contains: ['SS-CTX: session context'] },
}
