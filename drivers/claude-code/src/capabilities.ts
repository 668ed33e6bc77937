import type { DriverCapabilities } from '@harness-kernel/kernel'

/**
 * Claude Code has no per-request hook the kernel could use (`model/request`), and folds host input only
 * into tool results: steering is at tool boundaries (and at a turn's start); input left at the end of a
 * turn starts the next turn.
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
  boundaries: Object.freeze(['tool'] as const),
  finalInputContinuesTurn: false,
  toolHosting: 'mcp',
  resume: 'native-id',
  model: 'own',
})
