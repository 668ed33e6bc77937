import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description:
    'PreToolUse allows with updatedInput: the new input replaces the whole input (PostToolUse sees it, description gone), the tool_use in history keeps the old one, the allow reason is never model-visible.',
  renderings: ['system', 'classic'],
  mode: 'r05-pre-allow-upd',
  expect: { hooks: BASIC_SEQUENCE, requests: 2, contains: ['changed-by-hook'], absent: ['ALLOW-REASON-abc'], outcome: 'completed' },
}
