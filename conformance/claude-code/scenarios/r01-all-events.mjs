import { ALL_EVENTS, BASIC_SEQUENCE, standardHooks } from '../lib/kit.mjs'

export default {
  description:
    "The shared harness's all-events settings (33 events, gen-settings.mjs): events the kernel never fires load without effect, the same hooks fire.",
  hooks: standardHooks(ALL_EVENTS),
  expect: { hooks: BASIC_SEQUENCE, detached: ['MessageDisplay/main'], requests: 2, outcome: 'completed' },
}
