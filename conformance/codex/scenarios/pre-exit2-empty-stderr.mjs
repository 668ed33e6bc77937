import { AUTO, cmd, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse exits 2 with empty stderr: the run fails and the tool runs (fail-open).',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['PostToolUse', 'Stop']),
    PreToolUse: [{ hooks: [cmd('PreToolUse')] }],
  },
  handlers: { 'PreToolUse.exit': '2' },
  expect: { hooks: ['PreToolUse/h', 'PostToolUse/h', 'Stop/h'], absent: ['Command blocked'] },
}
