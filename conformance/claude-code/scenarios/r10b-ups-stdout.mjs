import { BASIC_SEQUENCE } from '../lib/kit.mjs'

export default {
  description: 'UserPromptSubmit plain stdout: `UserPromptSubmit hook success: <stdout>` (final newline dropped) before the prompt.',
  renderings: ['system', 'classic'],
  mode: 'r10b-ups-stdout',
  expect: { hooks: BASIC_SEQUENCE, requests: 2, contains: ['UserPromptSubmit hook success: UPS-PLAIN-STDOUT-321'], outcome: 'completed' },
}
