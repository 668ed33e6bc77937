import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description:
    'PostToolUse exits 2: `PostToolUse:Bash hook blocking error from command: "<cmd>": [<cmd>]: <stderr>` after the tool result.',
  renderings: ['system', 'classic'],
  mode: 'r14-post-exit2',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: [
      'PostToolUse:Bash hook blocking error from command: "<HOOK_SH> PostToolUse main": [<HOOK_SH> PostToolUse main]: POST-EXIT2-stderr\n',
    ],
    outcome: 'completed',
  },
}
