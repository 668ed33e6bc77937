import { BASIC_SEQUENCE } from '../lib/kit.mjs'

const stops = (n) => Array.from({ length: n }, () => 'Stop/main')

export default {
  description:
    'A Stop hook that always blocks: it runs 9 times, 8 extra requests; the 9th block is overridden and the turn ends completed.',
  renderings: ['system', 'classic'],
  mode: 'r33-stop-always',
  expect: {
    hooks: [...BASIC_SEQUENCE.slice(0, -2), ...stops(9), 'SessionEnd/main'],
    requests: 10,
    contains: ['Stop hook blocking error from command: "<HOOK_SH> Stop main": ALWAYS-BLOCK'],
    outcome: 'completed',
  },
}
