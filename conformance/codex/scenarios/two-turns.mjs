import { AUTO, json, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'Two turns (app-server): SessionStart fires once and its context stays; a blocked first prompt is dropped but its context precedes the next prompt; UserPromptSubmit context each turn.',
  turns: ['blocked prompt', 'second prompt'],
  plan: AUTO,
  hooks: recordEvents(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd']),
  handlers: {
    'SessionStart.stdout': 'ss ctx',
    'UserPromptSubmit.1.stdout': json({
      decision: 'block',
      reason: 'blocked',
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ctx from blocked turn' },
    }),
    'UserPromptSubmit.2.stdout': json({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ups ctx turn 2' } }),
  },
  expect: { contains: ['ctx from blocked turn', 'ups ctx turn 2', 'ss ctx'], absent: ['blocked prompt'] },
}
