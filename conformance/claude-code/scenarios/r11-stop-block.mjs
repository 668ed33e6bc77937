import { BASIC_SEQUENCE, STOP_PREAMBLE } from '../lib/kit.mjs'

const [head, tail] = [BASIC_SEQUENCE.slice(0, -1), BASIC_SEQUENCE.slice(-1)]

export default {
  description:
    'Stop blocks once (only while stop_hook_active is false): exactly one more request in the same turn, with the preamble and the blocking-error text; the second Stop has stop_hook_active true.',
  renderings: ['system', 'classic'],
  mode: 'r11-stop-block',
  expect: {
    hooks: [...head, 'Stop/main', ...tail],
    detached: ['MessageDisplay/main', 'MessageDisplay/main'],
    requests: 3,
    contains: [STOP_PREAMBLE, 'Stop hook blocking error from command: "<HOOK_SH> Stop main": STOP-BLOCK-REASON-keep-going'],
    outcome: 'completed',
  },
}
