import { cmd } from '../lib/kit.mjs'

/** One recorder per event (tag main). */
export const SUBAGENT_EVENTS = ['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolBatch', 'SubagentStart', 'SubagentStop', 'Stop']
export const recorders = (events = SUBAGENT_EVENTS) => Object.fromEntries(events.map((e) => [e, [{ hooks: [cmd(e)] }]]))

/** The Agent call: a general-purpose subagent whose prompt has a directive only the subagent runs (`<<bash:…>>`). */
export const agentCall = (extra = {}) =>
  `[[tool:Agent:${JSON.stringify({ description: 'sub job', prompt: 'sub task <<bash:echo sub>>', subagent_type: 'general-purpose', ...extra })}]]`

/*
 * Observed with Claude Code 2.1.332 (3 runs, the same result but for duration_ms):
 *   * the subagent's requests carry the header x-claude-code-agent-id (its agent_id): a conversation of its own, made
 *     while the Agent call waits; no UserPromptSubmit for its prompt; its PreToolUse/PostToolUse/PostToolBatch/
 *     SubagentStop keep the main turn's prompt_id and add agent_id, agent_type after permission_mode;
 *   * SubagentStart has no permission_mode or effort; SubagentStop has stop_hook_active, agent_transcript_path
 *     (<session>/subagents/agent-<id>.jsonl), last_assistant_message, background_tasks, session_crons;
 *   * the model gets the report inside Claude's hand-back frame (normalized: `<subagent report>`), PostToolUse of
 *     Agent the completed-agent object, PostToolBatch the frame's content blocks.
 */
export default {
  description:
    'A foreground subagent (Agent, run_in_background:false) that runs one Bash call: SubagentStart/SubagentStop, its tool hooks with agent_id/agent_type, the Agent PostToolUse/PostToolBatch, its own conversation.',
  prompt: `Delegate. ${agentCall({ run_in_background: false })}`,
  subagents: true,
  hooks: recorders(),
  expect: {
    hooks: [
      'UserPromptSubmit/main',
      'PreToolUse/main',
      'SubagentStart/main',
      'PreToolUse/main',
      'PostToolUse/main',
      'PostToolBatch/main',
      'SubagentStop/main',
      'PostToolUse/main',
      'PostToolBatch/main',
      'Stop/main',
    ],
    requests: 2,
    subagentRequests: [2],
    contains: [
      'sub task <<bash:echo sub>>',
      '<subagent report>\n<tools-used-before-summary>Bash</tools-used-before-summary>\nFINAL reply to request #3',
    ],
    outcome: 'completed',
  },
}
