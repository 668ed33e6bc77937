import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description:
    'Default permission mode, PreToolUse `ask` (and a PermissionRequest hook that would allow): headless, the call is denied with the reason and no PermissionRequest hook runs.',
  bypass: false,
  mode: 'r35-ask-then-permreq',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main'),
    requests: 2,
    contains: ['ASK-REASON-q'],
    outcome: 'completed',
  },
}
