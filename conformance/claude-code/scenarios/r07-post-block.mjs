import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description:
    'PostToolUse `decision:block`: `PostToolUse:Bash hook blocking error from command: "<cmd>": <reason>` after the tool result (system message, or a reminder inside the tool_result).',
  renderings: ['system', 'classic'],
  mode: 'r07-post-block',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: ['PostToolUse:Bash hook blocking error from command: "<HOOK_SH> PostToolUse main": POST-BLOCK-REASON-777'],
    outcome: 'completed',
  },
}
