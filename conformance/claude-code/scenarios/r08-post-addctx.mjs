import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'PostToolUse additionalContext: `PostToolUse:Bash hook additional context: <ctx>`, anchored to the tool result.',
  renderings: ['system', 'classic'],
  mode: 'r08-post-addctx',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: ['PostToolUse:Bash hook additional context: POST-ADDCTX-555'],
    outcome: 'completed',
  },
}
