import { ALL_EVENTS, AUTO, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'A recorder on all 12 events and no hook output: which events fire, in what order, with which payloads.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: recordEvents(ALL_EVENTS),
  expect: { hooks: ['SessionStart/h', 'UserPromptSubmit/h', 'PreToolUse/h', 'PostToolUse/h', 'Stop/h', 'SessionEnd/h'] },
}
