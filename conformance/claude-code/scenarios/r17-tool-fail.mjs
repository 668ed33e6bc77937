import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description:
    'A failing Bash call (exit 3, stderr only): PostToolUseFailure (`error`, `is_interrupt`, `duration_ms`) fires instead of PostToolUse.',
  renderings: ['system', 'classic'],
  prompt: 'Please run it. [[bash:echo oops >&2; exit 3]]',
  expect: {
    hooks: BASIC_SEQUENCE.flatMap((k) => (k === 'PostToolUse/main' ? ['PostToolUseFailure/main'] : k === 'PostToolUse/dup' ? [] : [k])),
    requests: 2,
    outcome: 'completed',
  },
}
