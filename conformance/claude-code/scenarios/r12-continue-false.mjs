import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description:
    'PostToolUse `continue:false`: no further request, no PostToolBatch, no Stop; the turn halts; stopReason is never model-visible.',
  renderings: ['system', 'classic'],
  mode: 'r12-continue-false',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolBatch/main', 'Stop/main'),
    detached: [],
    requests: 1,
    absent: ['STOPREASON-CF-1'],
    outcome: 'halted',
  },
}
