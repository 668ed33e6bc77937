import { BASIC_SEQUENCE } from '../lib/kit.mjs'

// shared modes/r30-pre-addctx, except that A waits 0.3 s: there, main and A both allow with an
// updatedInput at once, and which one finishes last (and so wins) is a race.
export default {
  description:
    "PreToolUse: main and A allow with updatedInput (A finishes last and wins), B adds context: the tool runs `echo from-A` and B's context follows the result.",
  renderings: ['system', 'classic'],
  modes: {
    PreToolUse: `[ "$2" = B ] && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"PRE-ADDCTX-from-B"}}'
[ "$2" = A ] && { sleep 0.3; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo from-A"}}}'; }
[ "$2" = main ] && echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo from-main"}}}'
exit 0
`,
  },
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: ['from-A', 'PreToolUse:Bash hook additional context: PRE-ADDCTX-from-B'],
    absent: ['from-main'],
    outcome: 'completed',
  },
}
