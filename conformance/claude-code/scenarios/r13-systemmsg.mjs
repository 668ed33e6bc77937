import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: '`systemMessage` on PreToolUse, PostToolUse, Stop and UserPromptSubmit: never model-visible.',
  renderings: ['system', 'classic'],
  mode: 'r13-systemmsg',
  expect: {
    hooks: BASIC_SEQUENCE,
    requests: 2,
    absent: ['SYSMSG-PRE-1', 'SYSMSG-POST-2', 'SYSMSG-STOP-3', 'SYSMSG-UPS-4'],
    outcome: 'completed',
  },
}
