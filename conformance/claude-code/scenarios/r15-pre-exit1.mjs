import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse exits 1: non-blocking; the tool runs and the model sees neither its stdout nor its stderr.',
  renderings: ['system', 'classic'],
  mode: 'r15-pre-exit1',
  expect: { hooks: BASIC_SEQUENCE, requests: 2, absent: ['PRE-EXIT1-stderr', 'PRE-EXIT1-stdout'], outcome: 'completed' },
}
