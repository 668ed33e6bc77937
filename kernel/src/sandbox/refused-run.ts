import type { ProcessRunResult } from '../process-runner.js'

/** The result of a run the sandbox refused to start: nothing ran, and `spawnError` says why. */
export function refusedRun(reason: string): ProcessRunResult {
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
    aborted: false,
    durationMs: 0,
    pid: undefined,
    spawnError: reason,
  }
}
