import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description:
    'SessionStart additionalContext: `SessionStart hook additional context: <ctx>` first in the context. The script also appends to $CLAUDE_ENV_FILE (set only for SessionStart).',
  renderings: ['system', 'classic'],
  mode: 'r16-sessionstart-ctx',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    contains: ['SessionStart hook additional context: SESSIONSTART-ADDCTX-42'],
    outcome: 'completed',
  },
}
