import { BASIC_SEQUENCE, cmd } from '../lib/kit.mjs'

export default {
  description:
    'Dedup by command string across groups and sources: project `hook.sh Stop main` plus a --settings file with it twice more and once with two spaces (shared settings/dup.json): Stop runs twice.',
  settingsFlag: {
    Stop: [{ hooks: [cmd('Stop', 'main'), cmd('Stop', 'main'), { type: 'command', command: '@HOOK@  Stop main' }] }],
  },
  expect: { hooks: [...BASIC_SEQUENCE.slice(0, -1), 'Stop/main', 'SessionEnd/main'], requests: 2, outcome: 'completed' },
}
