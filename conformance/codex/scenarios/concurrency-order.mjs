import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description:
    'Handlers of one event start together and merge in display order, not finish order: PreToolUse contexts A (slow) then B; PostToolUse blocks A (slow) and B joined with a blank line.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['Stop']),
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('PreToolUse', 'a')] }, { hooks: [cmd('PreToolUse', 'b')] }],
    PostToolUse: [{ hooks: [cmd('PostToolUse', 'a'), cmd('PostToolUse', 'b')] }],
  },
  handlers: {
    'PreToolUse-a.sleep': '1',
    'PreToolUse-a.stdout': json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx from A (slow)' } }),
    'PreToolUse-b.stdout': json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx from B (fast)' } }),
    'PostToolUse-a.sleep': '0.8',
    'PostToolUse-a.stdout': json({ decision: 'block', reason: 'post reason A' }),
    'PostToolUse-b.exit': '2',
    'PostToolUse-b.stderr': 'post reason B',
  },
  expect: { contains: ['post reason A\n\npost reason B', 'ctx from A (slow)', 'ctx from B (fast)'] },
}
