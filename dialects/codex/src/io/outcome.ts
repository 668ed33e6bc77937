/**
 * One line of a run report (codex-hooks.md §9). `context` entries hold the full, unspilled text; the `hook/run` record
 * keeps other texts over 2 KiB as an excerpt with a truncation marker (their copy is logged where the model gets it).
 */
export interface HookOutputEntry {
  kind: 'warning' | 'context' | 'feedback' | 'stop' | 'error'
  text: string
}

export type HookRunStatus = 'completed' | 'failed' | 'blocked' | 'stopped'

/** How one handler process ended, as the runner saw it. stdout/stderr are the full, lossily decoded streams. */
export interface HandlerRun {
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** The handler's effective timeout, for `hook timed out after <N>s`. */
  timeoutSec: number
  /** Set when the process could not be started (or stdin could not be written). */
  spawnError?: string | undefined
}

export type PermissionVerdict = { behavior: 'allow' } | { behavior: 'deny'; message: string }

/**
 * What one handler run means, normalized over all events. Only the fields an event can produce are ever set:
 * - `contexts`: additionalContext (or plain stdout) for the model; SessionStart, SubagentStart, UserPromptSubmit,
 *   PreToolUse, PostToolUse. Kept even when the run blocks or stops.
 * - `block`: PreToolUse block (trimmed reason), PostToolUse block / exit 2 (the reason as given),
 *   UserPromptSubmit block / exit 2 (drops the prompt), Stop and SubagentStop block (trimmed; the continuation prompt).
 * - `stop`: `continue:false`, with `stopReason` when given: SessionStart, UserPromptSubmit, PostToolUse, Stop,
 *   SubagentStop, PreCompact, PostCompact.
 * - `feedback`: PostToolUse only: the text this run puts in place of the tool result (a block's reason, or for
 *   `continue:false` its non-empty `reason`, else `stopReason`, else `PostToolUse hook stopped execution`).
 * - `updatedInput`: PreToolUse `allow` with `updatedInput`, when the run does not block.
 * - `permission`: PermissionRequest allow / deny (deny also for exit 2 with stderr).
 * - `fallbackToApproval`: PermissionRequest `interrupt:true`: a failure, so the normal approval request follows.
 */
export interface HandlerOutcome {
  status: HookRunStatus
  /** In Codex's order: warning (systemMessage), then context, then feedback / stop / error. */
  entries: HookOutputEntry[]
  contexts: string[]
  block?: { reason: string }
  stop?: { reason: string | undefined }
  feedback?: string
  updatedInput?: unknown
  permission?: PermissionVerdict
  fallbackToApproval?: boolean
}

export function emptyOutcome(): HandlerOutcome {
  return { status: 'completed', entries: [], contexts: [] }
}
