import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'Two PreToolUse allows with updatedInput; A finishes 0.6 s later and wins: the tool runs `echo from-A`.',
  renderings: ['system', 'classic'],
  mode: 'r31-upd-order',
  expect: { hooks: BASIC_SEQUENCE, requests: 2, contains: ['from-A'], absent: ['from-main'], outcome: 'completed' },
}
