import { delayed, EXEC_EVENTS, recordEvents } from '../lib/kit.mjs'

/*
 * Observed with Codex 0.169.0 (exec, 2 runs, the same result but for the order of the root's PostToolUse and the
 * child's SubagentStart, a race):
 *   * the child's requests carry x-codex-turn-metadata thread_source "subagent" (the fake server's `sub` lane);
 *   * SubagentStart, the child's UserPromptSubmit (its message) and SubagentStop carry agent_id (the child thread's id),
 *     agent_type "default", the child's turn_id; SubagentStart's and UserPromptSubmit's transcript_path is the child's
 *     rollout, SubagentStop's the parent's (the child's is agent_transcript_path);
 *   * spawn_agent's result is `{"agent_id":…,"nickname":…}` (a random name: normalized to `<nickname>`);
 *   * the child finished while the root's request was held: when that answer came, the root made one more request
 *     with `<subagent_notification>` before its Stop (as the kernel does: the notification is steered into the turn);
 *   * with a shell command in the child, the command did not finish inside the root's turn when recorded (the
 *     machine's ~/.bashrc held every shell command 10 s before the suite ran Codex with an empty HOME), so the child
 *     only answers.
 */
export const SUB_EVENTS = [...EXEC_EVENTS, 'SubagentStart', 'SubagentStop']

/**
 * The root spawns a subagent (namespace multi_agent_v1), then its next answer is held 4 s, so that the child (which
 * only answers) finishes inside the root's turn: `codex exec` does not wait for a running child. Lanes: `root` (the
 * main thread) and `sub` (the child thread, by its request metadata).
 */
export const SUB_PLAN = {
  root: [
    { kind: 'call', name: 'spawn_agent', namespace: 'multi_agent_v1', args: { message: 'sub task: answer' } },
    delayed(4000, { kind: 'message', text: 'Root done.' }),
  ],
  sub: [{ kind: 'message', text: 'Sub done.' }],
}

export default {
  description: 'spawn_agent: a subagent answers while the root waits; SubagentStart/SubagentStop, the child prompt, the notification',
  prompt: 'run the tool',
  plan: SUB_PLAN,
  subagents: true,
  hooks: recordEvents(SUB_EVENTS),
  expect: {
    hooks: [
      'SessionStart/h',
      'UserPromptSubmit/h',
      'PreToolUse/h',
      'PostToolUse/h',
      '<agent-1> SubagentStart/h',
      '<agent-1> UserPromptSubmit/h',
      '<agent-1> SubagentStop/h',
      'Stop/h',
      'SessionEnd/h',
    ],
    subagentRequests: [1],
  },
}
