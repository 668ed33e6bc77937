import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'acceptEdits: `touch` of a file outside the working directories asks (the "outside the working directories" text, addDirectories suggestion) and is denied.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'acceptEdits',
  prompt: `Touch it. ${bash('touch @CASE@/out.txt')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: [
      "touch in '<CASE>/out.txt' needs approval. The path is outside the working directories for this session ('<PROJECT>'). Allowing runs the command as written.",
    ],
    outcome: 'completed',
  },
}
