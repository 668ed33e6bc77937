import { agentCall, recorders } from './a01-subagent.mjs'

/*
 * Observed with Claude Code 2.1.332 (3 runs, the same result but for duration_ms): the block continues the subagent
 * in the same conversation with the Stop-continuation preamble and `Stop hook feedback:\n<reason>` (not
 * `SubagentStop hook feedback:`) as a user reminder, then `SubagentStop hook blocking error from command: …` as a
 * system message; the second SubagentStop has stop_hook_active true; the parent sees only the last report.
 */
export default {
  description:
    'SubagentStop blocks once (decision block while stop_hook_active is false): the subagent gets the reason and makes one more request; the second SubagentStop has stop_hook_active true; the parent gets the last report.',
  prompt: `Delegate. ${agentCall({ run_in_background: false })}`,
  subagents: true,
  hooks: recorders(),
  modes: {
    SubagentStop: `grep -q '"stop_hook_active":false' "$1" && echo '{"decision":"block","reason":"SUBAGENT-STOP-BLOCK-keep-going"}'
exit 0
`,
  },
  expect: {
    hooks: [
      'UserPromptSubmit/main',
      'PreToolUse/main',
      'SubagentStart/main',
      'PreToolUse/main',
      'PostToolUse/main',
      'PostToolBatch/main',
      'SubagentStop/main',
      'SubagentStop/main',
      'PostToolUse/main',
      'PostToolBatch/main',
      'Stop/main',
    ],
    requests: 2,
    subagentRequests: [3],
    contains: ['SUBAGENT-STOP-BLOCK-keep-going'],
    outcome: 'completed',
  },
}
