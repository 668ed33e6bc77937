import { bash, recorders, TOOL_EVENTS, toolSeq } from '../lib/kit.mjs'

export default {
  description:
    "Held-out variation: sandbox.enabled, bypassPermissions: Claude's temporary folder (`$TMPDIR`, /tmp/claude-<uid>) is writable inside the sandbox (a unique file made and removed).",
  hooks: recorders(TOOL_EVENTS),
  settingsExtra: { sandbox: { enabled: true } },
  claudeSandboxPath: true,
  failureOutput: true,
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Try it. ${bash('f="$TMPDIR/s15-$$-$RANDOM" && touch "$f" && rm "$f" && echo tmp-ok')}`,
  expect: { hooks: toolSeq('PreToolUse', 'PostToolUse'), requests: 2, contains: ['tmp-ok'], outcome: 'completed' },
}
