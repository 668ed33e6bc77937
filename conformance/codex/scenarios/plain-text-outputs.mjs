import { AUTO, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'Plain-text stdout on every event: trimmed context on SessionStart and UserPromptSubmit, ignored on Pre/PostToolUse, a failure (no effect) on Stop.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: recordEvents(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']),
  handlers: {
    'SessionStart.stdout': 'ss line one\nss line two\n',
    'UserPromptSubmit.stdout': '  ups plain line one\nline two\n\n',
    'PreToolUse.stdout': 'plain pre stdout text',
    'PostToolUse.stdout': 'plain post stdout text',
    'Stop.stdout': 'plain stop stdout',
  },
  expect: {
    contains: ['ss line one\nss line two', 'ups plain line one\nline two'],
    absent: ['plain pre stdout', 'plain post stdout', 'plain stop stdout'],
  },
}
