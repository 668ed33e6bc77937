import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse `ask` in a headless run: the call is denied and the tool error is exactly the reason, with no prefix.',
  renderings: ['system', 'classic'],
  mode: 'r06-pre-ask',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main'),
    requests: 2,
    contains: ['ASK-REASON-q'],
    outcome: 'completed',
  },
}
