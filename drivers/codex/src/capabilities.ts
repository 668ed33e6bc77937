import type { DriverCapabilities } from '@harness-kernel/kernel'

/**
 * Codex's app server has no per-request hook (`model/request`) and no Stop callback over the protocol
 * (`agent/turn-stopping`; Codex's own Stop hooks still run from its `hooks.json`). Input is steered live:
 * Codex folds it in at its next sampling boundary, also after the final answer (the same turn goes on).
 */
export const CODEX_CAPABILITIES: DriverCapabilities = Object.freeze({
  points: Object.freeze({
    'agent/pre-step': 'decides',
    'model/delta': 'observes',
    'tools/pre-execute': 'decides',
    'tools/permission-request': 'decides',
    'tools/post-execute': 'decides',
  }),
  boundaries: Object.freeze(['sampling', 'tool', 'final'] as const),
  finalInputContinuesTurn: true,
  toolHosting: 'dynamic-tools',
  resume: 'native-id',
  model: 'own',
})
