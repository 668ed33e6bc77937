/** Options for one child process. Every hook command and the shell tool go through here. */
export interface ProcessRunOptions {
  /** With `shell`, a command line; without, the executable. */
  command: string
  args?: readonly string[]
  /** `true` runs `command` with `/bin/sh -c`; a string names the shell (`/bin/bash`), run as `<shell> -c <command>`. */
  shell?: boolean | string
  cwd: string
  /** Environment for the child. Merged over `process.env` unless `extendEnv` is false. */
  env?: Record<string, string | undefined>
  extendEnv?: boolean
  /** Written to stdin exactly as given, then stdin is closed. Without it stdin is closed at once. */
  stdin?: string | Uint8Array
  /** Kill the whole process group after this long. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Bytes kept per stream; the tail is kept, the total is counted. Default 1 MiB. */
  maxOutputBytes?: number
  /** Between SIGTERM and SIGKILL. Default 2000 ms. */
  killGraceMs?: number
}

export interface ProcessRunResult {
  /** null when killed by a signal. */
  exitCode: number | null
  signal: string | null
  stdout: string
  stderr: string
  stdoutBytes: number
  stderrBytes: number
  stdoutTruncated: boolean
  stderrTruncated: boolean
  timedOut: boolean
  aborted: boolean
  durationMs: number
  pid: number | undefined
  /** Set when the process could not be started (ENOENT, EACCES, bad cwd). */
  spawnError?: string
}

/** The `processRunner` service. */
export interface ProcessRunner {
  run(options: ProcessRunOptions): Promise<ProcessRunResult>
}
