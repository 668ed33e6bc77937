import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse denies with JSON: the tool does not run; the error is `PreToolUse:Bash hook error: <reason>`.',
  renderings: ['system', 'classic'],
  mode: 'r04-pre-deny',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main'),
    requests: 2,
    contains: ['PreToolUse:Bash hook error: DENY-REASON-xyz'],
    outcome: 'completed',
  },
}
