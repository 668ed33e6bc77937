import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'PostToolUse continue:false: the output becomes stopReason and the turn goes on (another request, then Stop).',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['Stop']),
    PostToolUse: [{ hooks: [cmd('PostToolUse')] }],
  },
  handlers: { 'PostToolUse.stdout': json({ continue: false, stopReason: 'post stop reason' }) },
  expect: { contains: ['post stop reason'], hooks: ['PostToolUse/h', 'Stop/h'] },
}
