import type { ProcessRunResult } from '@harness-kernel/kernel'

/** One hook handler to run as `<shell> -c <command>`, or (exec form, `shell: false`) as `command` with `args`. */
export interface HookCommandSpec {
  /** Passed to the shell verbatim, never rewritten; in exec form, the executable. */
  command: string
  /** With `shell: false`, the argument vector, each element one argument exactly as given; with a shell, quoted onto the line. */
  args?: readonly string[]
  /** The shell's path, e.g. `/bin/bash` (Codex) or `/bin/sh` (Claude Code); `false` spawns `command` directly (exec form). */
  shell: string | false
  cwd: string
  /** Merged over the parent environment (unless `extendEnv` is false); `undefined` removes a variable. */
  env?: Record<string, string | undefined>
  extendEnv?: boolean
  /** Written byte for byte, then stdin is closed. */
  stdin: string
  timeoutMs: number
  signal?: AbortSignal
  maxOutputBytes?: number
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number
}

export type HookCommandResult = ProcessRunResult & {
  /** Epoch milliseconds when the process was launched. */
  startedAt: number
  /** Epoch milliseconds when it finished. */
  completedAt: number
  /** Finish order among the commands launched together: 0 finished first. */
  completionIndex: number
}
