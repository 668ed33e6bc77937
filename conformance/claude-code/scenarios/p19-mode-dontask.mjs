import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description: "dontAsk: `touch` in the project is denied with the don't-ask text; only PreToolUse fires.",
  hooks: recorders(),
  trusted: true,
  permissionMode: 'dontAsk',
  prompt: `Touch it. ${bash('touch @PROJECT@/t')}`,
  expect: {
    hooks: turnWith('PreToolUse'),
    requests: 2,
    contains: ["Permission to use Bash has been denied because Claude Code is running in don't ask mode."],
    outcome: 'completed',
  },
}
