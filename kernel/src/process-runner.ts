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
  /** Written to stdin exactly as given, then stdin is closed. Without it (and `onStdin`) stdin is `/dev/null`. */
  stdin?: string | Uint8Array
  /** Kill the whole process group after this long. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Bytes kept per stream; the tail is kept, the total is counted. Default 1 MiB. */
  maxOutputBytes?: number
  /** Between SIGTERM and SIGKILL. Default 2000 ms. */
  killGraceMs?: number
  /**
   * Each chunk of stdout or stderr as it arrives, in order, before `maxOutputBytes` caps the capture (a cap of 0 keeps
   * no capture at all, for a caller that keeps its own). Every chunk has been passed on before `run` resolves, unless a
   * process that left the group holds the pipe. `stop()` ends the chunks of that stream for a caller that has what it
   * wanted of it (the capture goes on): a runner in another process then no longer sends them. An exception it throws
   * is ignored.
   */
  onOutput?: (stream: ProcessOutputStream, chunk: Uint8Array, stop: () => void) => void
  /**
   * Keeps the child's stdin open: called once the child has started (after `stdin`, if given, was written) with the
   * handle to write more and to close it. Without it, stdin is closed after `stdin`. An exception it throws is ignored.
   */
  onStdin?: (stdin: ProcessStdin) => void
  /**
   * Called once with the child's pid (which leads its process group) as soon as it has started, before any output.
   * An exception it throws is ignored.
   */
  onStart?: (pid: number, start?: ProcessStart) => void
  /**
   * This command line runs again (a hook command): once the run is over, start `<bash> -c <command>` for the next one
   * with the same cwd and environment, waiting to be told its stdin, so the next run pays no fork and no bash start-up.
   * Only for bash (`shell` naming bash) without `onStdin`; the command runs as a fresh `bash -c` would. A runner that
   * cannot do it ignores it.
   */
  prestart?: boolean
}

/** What a runner may know of a child as it started, besides its pid. */
export interface ProcessStart {
  /** Linux: when the child started, clock ticks since boot (`/proc/<pid>/stat` field 22), read while it surely ran. */
  startTicks?: number
}

export type ProcessOutputStream = 'stdout' | 'stderr'

/** The open stdin of a running child (`onStdin`). */
export interface ProcessStdin {
  /** The child's pid, which leads its process group. */
  readonly pid: number
  /** True once `end()` was called or the pipe is gone (the child exited or closed it). */
  readonly ended: boolean
  /** Resolves once the bytes are handed to the pipe; rejects when stdin has ended or the write fails (EPIPE). */
  write(chunk: string | Uint8Array): Promise<void>
  /** Closes stdin: the child reads end of file. Idempotent. */
  end(): void
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
  /**
   * Set when the process could not be started (ENOENT, EACCES, bad cwd), or when what became of it is not known (the
   * process launcher died while it ran: its group was killed).
   */
  spawnError?: string
}

/** The `processRunner` service. */
export interface ProcessRunner {
  run(options: ProcessRunOptions): Promise<ProcessRunResult>
}
