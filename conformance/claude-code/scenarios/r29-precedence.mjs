import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description:
    "Three PreToolUse handlers: main allows with updatedInput, A denies, B adds context. Deny wins; B's context is still delivered alongside the deny.",
  renderings: ['system', 'classic'],
  mode: 'r29-precedence',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main'),
    requests: 2,
    contains: ['PreToolUse:Bash hook error: DENY-from-A', 'PreToolUse:Bash hook additional context: PRE-ADDCTX-from-B'],
    absent: ['ALLOW-main', 'from-main'],
    outcome: 'completed',
  },
}
