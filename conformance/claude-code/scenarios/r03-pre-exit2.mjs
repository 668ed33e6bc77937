import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description:
    'PreToolUse exits 2: the tool does not run; the error is `PreToolUse:Bash hook error: [<cmd>]: <stderr>`; stdout is ignored.',
  renderings: ['system', 'classic'],
  mode: 'r03-pre-exit2',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolUse/dup', 'PostToolUse/main'),
    requests: 2,
    contains: ['PreToolUse:Bash hook error: [<HOOK_SH> PreToolUse main]: BLOCKED-BY-PRE-EXIT2: not allowed'],
    absent: ['PRE-STDOUT-ignored?'],
    outcome: 'completed',
  },
}
