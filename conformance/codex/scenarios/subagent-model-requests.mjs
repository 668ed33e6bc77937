import { recordEvents } from '../lib/kit.mjs'
import { SUB_PLAN } from './subagent.mjs'

/*
 * Observed with Codex 0.171.0 (`codex exec`, one run; the subagent scenario's plan): the child's model requests run
 * PreModelRequest and PostModelRequest too, with the root's `session_id`, the child's `thread_id`, `turn_id` and
 * `transcript_path`, and `agent_id, agent_type` right before `hook_event_name`. PreToolUse is not recorded: it races
 * the first request's PostModelRequest in Codex (see model-request-hooks).
 */
export default {
  description: 'PreModelRequest/PostModelRequest of a subagent: payloads (agent_id, agent_type), and the root’s around them.',
  prompt: 'run the tool',
  plan: SUB_PLAN,
  subagents: true,
  hooks: recordEvents([
    'SessionStart',
    'UserPromptSubmit',
    'PreModelRequest',
    'PostModelRequest',
    'SubagentStart',
    'SubagentStop',
    'Stop',
    'SessionEnd',
  ]),
  expect: { subagentRequests: [1] },
}
