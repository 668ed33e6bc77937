import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'No hook output: which events fire in a one-tool turn, in what order, with which stdin, env and cwd.',
  renderings: ['system', 'classic'],
  expect: { hooks: BASIC_SEQUENCE, detached: ['MessageDisplay/main'], requests: 2, outcome: 'completed' },
}
