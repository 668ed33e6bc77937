import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: 'Compound `touch a && touch b` vs allow `Bash(touch:*)` (default mode, trusted): every part is allowed, so it runs.',
  hooks: recorders(),
  settingsExtra: { permissions: { allow: ['Bash(touch:*)'] } },
  trusted: true,
  permissionMode: 'default',
  prompt: `Touch both. ${bash('touch @PROJECT@/a && touch @PROJECT@/b')}`,
  expect: { hooks: turnWith('PreToolUse', 'PostToolUse'), requests: 2, contains: ['<no output>'], outcome: 'completed' },
}
