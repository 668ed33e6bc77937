import { AUTO, cmd, json, recordEvents } from '../lib/kit.mjs'

export default {
  description: 'PreToolUse exits 2: the trimmed stderr is the reason; the JSON on stdout is ignored.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    ...recordEvents(['PostToolUse', 'Stop']),
    PreToolUse: [{ matcher: 'Bash', hooks: [cmd('PreToolUse')] }],
  },
  handlers: {
    'PreToolUse.exit': '2',
    'PreToolUse.stderr': '  blocked by exit2 hook\n',
    'PreToolUse.stdout': json({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ignored on exit 2' } }),
  },
  expect: {
    contains: ['Command blocked by PreToolUse hook: blocked by exit2 hook. Command: echo hello-from-tool'],
    absent: ['ignored on exit 2'],
  },
}
