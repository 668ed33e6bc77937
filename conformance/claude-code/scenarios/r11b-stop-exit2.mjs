import { BASIC_SEQUENCE, STOP_PREAMBLE } from '../lib/kit.mjs'

const [head, tail] = [BASIC_SEQUENCE.slice(0, -1), BASIC_SEQUENCE.slice(-1)]

export default {
  description:
    'Stop exits 2 once: one continuation, a single user block ending `Stop hook feedback:\\n[<cmd>]: <stderr>\\n</system-reminder>`.',
  renderings: ['system', 'classic'],
  mode: 'r11b-stop-exit2',
  expect: {
    hooks: [...head, 'Stop/main', ...tail],
    requests: 3,
    contains: [`${STOP_PREAMBLE}\nStop hook feedback:\n[<HOOK_SH> Stop main]: STOP-EXIT2-stderr\n\n</system-reminder>`],
    outcome: 'completed',
  },
}
