import { bash, recorders, turnWith } from '../lib/kit.mjs'

export default {
  description:
    '`bash -c "rm -f x"` vs deny `Bash(rm:*)` (bypassPermissions): not a deny but an ask with the shell -c script text; PermissionRequest fires with permission_suggestions [].',
  hooks: recorders(),
  settingsExtra: { permissions: { deny: ['Bash(rm:*)'] } },
  files: { x: '' },
  trusted: true,
  permissionMode: 'bypassPermissions',
  prompt: `Remove it. ${bash('bash -c "rm -f @PROJECT@/x"')}`,
  expect: {
    hooks: turnWith('PreToolUse', 'PermissionRequest'),
    requests: 2,
    contains: [
      'A permission rule denies a command inside this shell -c script, so Claude Code could not check it for dangerous removals. Approving runs the whole script, including that command.',
    ],
    outcome: 'completed',
  },
}
