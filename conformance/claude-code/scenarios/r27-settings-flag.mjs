import { cmd } from '../lib/kit.mjs'

export default {
  description: 'No project settings; hooks only from a --settings file (shared settings/only-stop.json).',
  hooks: null,
  settingsFlag: {
    Stop: [{ hooks: [cmd('Stop', 'viaSettingsFlag')] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('PreToolUse', 'viaSettingsFlag')] }],
  },
  expect: { hooks: ['PreToolUse/viaSettingsFlag', 'Stop/viaSettingsFlag'], detached: [], requests: 2, outcome: 'completed' },
}
