import { AUTO, json, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'Invalid JSON output fails open: a PreToolUse deny with an unknown key, a PostToolUse block that does not parse, a UserPromptSubmit array, a Stop block with an unknown key.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: recordEvents(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']),
  handlers: {
    'UserPromptSubmit.stdout': '["not","an","object"]',
    'PreToolUse.stdout': json({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'deny with extra field' },
      extraField: 1,
    }),
    'PostToolUse.stdout': '{"decision":"block","reason":"truncated',
    'Stop.stdout': json({ decision: 'block', reason: 'stop with extra key', extra: true }),
  },
  expect: {
    absent: ['deny with extra field', 'truncated', 'stop with extra key', '["not"'],
    hooks: ['UserPromptSubmit/h', 'PreToolUse/h', 'PostToolUse/h', 'Stop/h'],
  },
}
