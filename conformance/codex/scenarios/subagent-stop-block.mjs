import { delayed, json, recordEvents } from '../lib/kit.mjs'
import { SUB_EVENTS } from './subagent.mjs'

export default {
  description:
    'SubagentStop blocks once: the child continues with a <hook_prompt> user message and makes one more request; the second SubagentStop has stop_hook_active true',
  prompt: 'run the tool',
  plan: {
    root: [
      { kind: 'call', name: 'spawn_agent', namespace: 'multi_agent_v1', args: { message: 'sub task: answer' } },
      delayed(5000, { kind: 'message', text: 'Root done.' }),
    ],
    sub: [
      { kind: 'message', text: 'Sub first answer.' },
      { kind: 'message', text: 'Sub second answer.' },
    ],
  },
  subagents: true,
  hooks: recordEvents(SUB_EVENTS),
  handlers: { 'SubagentStop.1.stdout': json({ decision: 'block', reason: 'sub keep going' }) },
  expect: { contains: ['sub keep going'], subagentRequests: [2] },
}
