import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    'plan: `touch` goes to the auto-mode classifier, unavailable offline: PermissionDenied fires with reason "Classifier unavailable" and the model sees the "Auto mode is unavailable" text.',
  hooks: recorders(),
  trusted: true,
  permissionMode: 'plan',
  prompt: `Touch it. ${bash('touch @PROJECT@/t')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionDenied'),
    requests: 2,
    contains: ['Auto mode is unavailable: its safety check does not run for this session, so Bash was not run.'],
    outcome: 'completed',
  },
}
