import { json, recordEvents } from '../lib/kit.mjs'
import { SUB_EVENTS, SUB_PLAN } from './subagent.mjs'

export default {
  description: "SubagentStart additionalContext: a developer message in the child's conversation before its prompt",
  prompt: 'run the tool',
  plan: SUB_PLAN,
  subagents: true,
  hooks: recordEvents(SUB_EVENTS),
  handlers: {
    'SubagentStart.stdout': json({
      hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'SUBSTART-CTX for the child' },
    }),
  },
  expect: { contains: ['SUBSTART-CTX for the child'], subagentRequests: [1] },
}
