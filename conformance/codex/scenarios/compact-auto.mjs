import { ALL_EVENTS, recordEvents, withUsage } from '../lib/kit.mjs'

/*
 * Observed with Codex 0.169.0 (`codex exec`, recorded twice, the same result): the first answer reports 50,000 total
 * tokens, over `model_auto_compact_token_limit = 20000`, so Codex compacts mid-turn, after the tool's output and before
 * the next request: PreCompact (trigger "auto", the turn's turn_id, no permission_mode), the compaction request,
 * PostCompact (the same), then SessionStart source "compact" at once, in the same turn (no turn_id). The plan's `auto`
 * step then calls the tool again (the history now ends with the summary, not a tool output).
 */
export default {
  description:
    'Auto compaction mid-turn (model_auto_compact_token_limit, a reported usage over it): PreCompact/PostCompact (auto) and SessionStart (compact), their order and turn ids.',
  prompt: 'run the tool',
  configExtra: 'model_auto_compact_token_limit = 20000',
  plan: {
    compaction: [{ kind: 'message', text: 'SUMMARY-AUTO' }],
    root: [withUsage(50000, { kind: 'tool', cmd: 'echo hello-from-tool' }), { kind: 'auto', cmd: 'echo hello-from-tool' }],
  },
  hooks: recordEvents(ALL_EVENTS),
  expect: {
    hooks: [
      'SessionStart/h',
      'UserPromptSubmit/h',
      'PreToolUse/h',
      'PostToolUse/h',
      'PreCompact/h',
      'PostCompact/h',
      'SessionStart/h',
      'PreToolUse/h',
      'PostToolUse/h',
      'Stop/h',
      'SessionEnd/h',
    ],
  },
}
