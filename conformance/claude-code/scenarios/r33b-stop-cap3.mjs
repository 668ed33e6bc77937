import { BASIC_SEQUENCE } from '../lib/kit.mjs'

// Observed in 2.1.332 (contrary to spec §6 / checklist 53, which say 3 runs and 2 extra requests):
// CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=N allows N continuations; block N+1 is overridden and the
// notice says "N+1 consecutive times" (the default behaves as N=8). N=0 disables the cap.
export default {
  description:
    'The always-blocking Stop hook with CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=3 (both sides): 4 runs, 3 extra requests, the notice says 4.',
  mode: 'r33-stop-always',
  env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' },
  expect: {
    hooks: [...BASIC_SEQUENCE.slice(0, -2), 'Stop/main', 'Stop/main', 'Stop/main', 'Stop/main', 'SessionEnd/main'],
    requests: 5,
    outcome: 'completed',
  },
}
