import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'UserPromptSubmit additionalContext: `UserPromptSubmit hook additional context: <ctx>` before the prompt.',
  renderings: ['system', 'classic'],
  mode: 'r10-ups-addctx',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: ['UserPromptSubmit hook additional context: UPS-ADDCTX-999'],
    outcome: 'completed',
  },
}
