import { BASIC_SEQUENCE, without } from '../lib/kit.mjs'

export default {
  description:
    'PreToolUse `continue:false`: the tool still runs and PostToolUse fires, then the turn halts (no PostToolBatch, no Stop, no request).',
  renderings: ['system', 'classic'],
  mode: 'r12b-continue-false-pre',
  expect: {
    hooks: without(BASIC_SEQUENCE, 'PostToolBatch/main', 'Stop/main'),
    detached: [],
    requests: 1,
    absent: ['STOPREASON-CF-PRE'],
    outcome: 'halted',
  },
}
