import { AUTO, cmd, json } from '../lib/kit.mjs'

/*
 * Observed with Codex 0.171.0 (`codex exec`; the same with 0.169.0): PreModelRequest and PostModelRequest run around
 * each model request, waited for; their matchers (even an invalid one) and their output are ignored; exit 2 only
 * marks the run failed. The request id is shared by a request's Pre and Post; the second request has its own.
 * No PreToolUse handler here: Codex starts a tool call when its item is done, before the response's end, so whether
 * PreToolUse or the request's PostModelRequest starts first is a race (both orders seen with Codex 0.171.0); the kernel runs
 * PostModelRequest first, as it starts tools once the whole answer is in.
 */
export default {
  description:
    'PreModelRequest/PostModelRequest around both requests of a tool turn: payloads, order, request ids, ignored matchers and output.',
  prompt: 'run the tool',
  plan: AUTO,
  hooks: {
    PreModelRequest: [{ matcher: 'compaction', hooks: [cmd('PreModelRequest')] }],
    PostModelRequest: [{ matcher: '[', hooks: [cmd('PostModelRequest')] }],
    Stop: [{ hooks: [cmd('Stop')] }],
  },
  handlers: {
    'PreModelRequest-h.1.stdout': json({
      decision: 'block',
      reason: 'ignored',
      continue: false,
      hookSpecificOutput: { hookEventName: 'PreModelRequest', additionalContext: 'IGNORED-CONTEXT' },
    }),
    'PreModelRequest-h.2.exit': '2',
    'PreModelRequest-h.2.stderr': 'ignored reason\n',
    'PostModelRequest-h.1.stdout': json({ decision: 'block', reason: 'ignored' }),
  },
  expect: {
    hooks: ['PreModelRequest/h', 'PostModelRequest/h', 'PreModelRequest/h', 'PostModelRequest/h', 'Stop/h'],
    absent: ['IGNORED-CONTEXT'],
  },
}
