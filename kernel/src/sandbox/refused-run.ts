import { unknownOutcome } from '../process/unknown-outcome.js'
import type { ProcessRunResult } from '../process-runner.js'

/** The result of a run the sandbox refused to start: nothing ran, and `spawnError` says why. */
export function refusedRun(reason: string): ProcessRunResult {
  return unknownOutcome({ reason, durationMs: 0 })
}
