import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'Two PreToolUse allows with updatedInput; main finishes 0.6 s later and wins: the tool runs `echo from-main`.',
  renderings: ['system', 'classic'],
  mode: 'r32-upd-order2',
  expect: { hooks: BASIC_SEQUENCE, requests: 2, contains: ['from-main'], absent: ['from-A'], outcome: 'completed' },
}
