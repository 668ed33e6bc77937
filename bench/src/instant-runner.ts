import type { ProcessRunner, ProcessRunOptions, ProcessRunResult } from '@harness-kernel/kernel'

/**
 * What a handler of `true` gives back, instantly: a dialect's own cost without any process. Keeps the last options, so a
 * benchmark can hand the real runner (and its raw spawns) exactly what the dialect would.
 */
export class InstantRunner implements ProcessRunner {
  last: ProcessRunOptions | undefined
  async run(options: ProcessRunOptions): Promise<ProcessRunResult> {
    this.last = options
    return {
      exitCode: 0,
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
    }
  }

  /** The stdin of the last run, as a string ('' before any). */
  get lastStdin(): string {
    return typeof this.last?.stdin === 'string' ? this.last.stdin : ''
  }
}
