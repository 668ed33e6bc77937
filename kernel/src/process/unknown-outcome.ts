import type { ProcessRunResult } from '../process-runner.js'

/** The result of a run whose outcome was lost (or that never ran): no exit status, no output, `spawnError` says why. */
export function unknownOutcome(fields: {
  reason: string
  durationMs: number
  pid?: number | undefined
  aborted?: boolean
}): ProcessRunResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    aborted: fields.aborted ?? false,
    durationMs: fields.durationMs,
    pid: fields.pid,
    spawnError: fields.reason,
  }
}
