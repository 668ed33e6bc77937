import type { DriverCapabilities } from '@harness-kernel/kernel'

/**
 * Claude Code has no per-request hook the kernel could use (`model/request`). It takes host input at any moment of a
 * turn (drivers.md §3.1): folded in with the next tool result, or, after the answer, run as a follow-up that the
 * driver keeps in the same kernel turn. Claims are live, counted as `tool` while a kernel tool's result is parked,
 * `final` at the answer's end, `sampling` otherwise.
 */
export const CLAUDE_CODE_CAPABILITIES: DriverCapabilities = Object.freeze({
  points: Object.freeze({
    'agent/pre-step': 'decides',
    'model/delta': 'observes',
    'tools/pre-execute': 'decides',
    'tools/permission-request': 'decides',
    'tools/post-execute': 'decides',
    'agent/turn-stopping': 'decides',
  }),
  boundaries: Object.freeze(['sampling', 'tool', 'final'] as const),
  finalInputContinuesTurn: true,
  toolHosting: 'mcp',
  resume: 'native-id',
  model: 'own',
})
