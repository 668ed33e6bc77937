import { cmd } from '../lib/kit.mjs'

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'PreCompact', 'PostCompact', 'SessionEnd']

/*
 * Observed with Claude Code 2.1.332 (recorded twice, the same result). A one-tool turn, then a second process
 * `claude -p "/compact keep the echo output" --resume <session>` (kernel: a new kernel resumes the session and calls
 * session.compact({ instructions })). In the compact process: SessionStart (resume) → PreCompact (manual,
 * custom_instructions) → SessionStart (compact, `model`) → PostCompact (compact_summary = the summary request's
 * answer, `FINAL reply to request #1` from the fake server) → SessionEnd; PreCompact/PostCompact/SessionStart carry
 * the process's prompt_id and no permission_mode. Not registered here: SubagentStop, which fires twice between
 * PreCompact and SessionStart (compact) for Claude's own compaction agents (`agent_type: ""`; the kernel has none).
 * The compaction's model requests are not compared (Claude's compaction prompt vs the kernel's COMPACTION_PROMPT).
 */
export default {
  description:
    'Manual /compact with instructions of a finished session (--resume): PreCompact (custom_instructions), SessionStart (compact), PostCompact (compact_summary), their order and ids.',
  hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [cmd(e)] }]])),
  compactAfter: 'keep the echo output',
  expect: {
    hooks: [
      'SessionStart/main',
      'UserPromptSubmit/main',
      'PreToolUse/main',
      'PostToolUse/main',
      'Stop/main',
      'SessionEnd/main',
      'SessionStart/main',
      'PreCompact/main',
      'SessionStart/main',
      'PostCompact/main',
      'SessionEnd/main',
    ],
    requests: 2,
    outcome: 'completed',
  },
}
