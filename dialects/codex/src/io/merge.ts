import type { CodexEvent } from '../events.js'
import type { HandlerOutcome, PermissionVerdict } from './outcome.js'

/** One handler's result for one event occurrence. Merge functions take these in display order. */
export interface MergeRun {
  outcome: HandlerOutcome
  /** 0 for the handler that finished first, and so on. */
  completionIndex: number
  /** `hookRunId(…)`: Stop and SubagentStop continuation fragments carry it. */
  runId: string
}

const contextsOf = (runs: readonly MergeRun[]): string[] => runs.flatMap((run) => run.outcome.contexts)

export interface PreToolUseDecision {
  blocked: boolean
  /** The first blocker's reason in display order, whoever finished first. */
  reason: string | undefined
  /** From the allow handler that finished last; never set when the call is blocked. */
  updatedInput?: unknown
  /** Display order; recorded even when the call is blocked. */
  contexts: string[]
}

export function mergePreToolUse(runs: readonly MergeRun[]): PreToolUseDecision {
  const blocker = runs.find((run) => run.outcome.block !== undefined)
  const contexts = contextsOf(runs)
  if (blocker !== undefined) return { blocked: true, reason: blocker.outcome.block!.reason, contexts }
  let latest: MergeRun | undefined
  for (const run of runs) {
    if (run.outcome.updatedInput === undefined) continue
    if (latest === undefined || run.completionIndex > latest.completionIndex) latest = run
  }
  return latest === undefined
    ? { blocked: false, reason: undefined, contexts }
    : { blocked: false, reason: undefined, updatedInput: latest.outcome.updatedInput, contexts }
}

export interface PostToolUseDecision {
  /** What the model sees instead of the tool result: every blocking or stopping run's text, display order, joined by a blank line. */
  replacement: string | undefined
  /** Any `continue:false`. Not a halt: the turn goes on. */
  stopped: boolean
  stopReason: string | undefined
  contexts: string[]
}

export function mergePostToolUse(runs: readonly MergeRun[]): PostToolUseDecision {
  const feedback = runs.flatMap((run) => (run.outcome.feedback === undefined ? [] : [run.outcome.feedback]))
  return {
    replacement: feedback.length === 0 ? undefined : feedback.join('\n\n'),
    stopped: runs.some((run) => run.outcome.stop !== undefined),
    stopReason: firstStopReason(runs),
    contexts: contextsOf(runs),
  }
}

export interface ContinuationFragment {
  runId: string
  /** The trimmed reason, unescaped; render with `hookPromptText(runId, text)`. */
  text: string
}

/** Stop / SubagentStop: `continue:false` from any run beats every block. */
export type StopDecision =
  | { action: 'stop'; stopReason: string | undefined }
  | { action: 'continue'; fragments: ContinuationFragment[] }
  | { action: 'none' }

export function mergeStop(runs: readonly MergeRun[]): StopDecision {
  if (runs.some((run) => run.outcome.stop !== undefined)) return { action: 'stop', stopReason: firstStopReason(runs) }
  const fragments = runs.flatMap((run) => (run.outcome.block === undefined ? [] : [{ runId: run.runId, text: run.outcome.block.reason }]))
  return fragments.length === 0 ? { action: 'none' } : { action: 'continue', fragments }
}

export interface PermissionRequestDecision {
  /** Any deny wins, with the first deny's message; else allow if any run allowed; else none. */
  verdict: PermissionVerdict | undefined
  /** No verdict (nothing decided, failures, `interrupt:true`): the normal approval request follows. */
  fallbackToApproval: boolean
}

export function mergePermissionRequest(runs: readonly MergeRun[]): PermissionRequestDecision {
  const verdicts = runs.flatMap((run) => (run.outcome.permission === undefined ? [] : [run.outcome.permission]))
  const verdict = verdicts.find((v) => v.behavior === 'deny') ?? verdicts.find((v) => v.behavior === 'allow')
  return { verdict, fallbackToApproval: verdict === undefined }
}

/**
 * UserPromptSubmit, SessionStart, SubagentStart, PreCompact, PostCompact. `stopped` if any run said `continue:false`;
 * `blocked` if any UserPromptSubmit run blocked (either drops the prompt). Contexts are kept either way.
 */
export interface GateDecision {
  stopped: boolean
  stopReason: string | undefined
  blocked: boolean
  /** The first blocker's reason, display order. */
  blockReason: string | undefined
  contexts: string[]
}

export function mergeGate(runs: readonly MergeRun[]): GateDecision {
  const blocker = runs.find((run) => run.outcome.block !== undefined)
  return {
    stopped: runs.some((run) => run.outcome.stop !== undefined),
    stopReason: firstStopReason(runs),
    blocked: blocker !== undefined,
    blockReason: blocker?.outcome.block?.reason,
    contexts: contextsOf(runs),
  }
}

export type MergedDecision =
  | ({ family: 'preToolUse' } & PreToolUseDecision)
  | ({ family: 'postToolUse' } & PostToolUseDecision)
  | ({ family: 'stop' } & { decision: StopDecision })
  | ({ family: 'permissionRequest' } & PermissionRequestDecision)
  | ({ family: 'gate' } & GateDecision)
  | { family: 'none' }

/** Merges by event family. SessionEnd, Interrupt and the model-request events are advisory: `none`. */
export function mergeOutcomes(event: CodexEvent, runs: readonly MergeRun[]): MergedDecision {
  switch (event) {
    case 'PreToolUse':
      return { family: 'preToolUse', ...mergePreToolUse(runs) }
    case 'PostToolUse':
      return { family: 'postToolUse', ...mergePostToolUse(runs) }
    case 'Stop':
    case 'SubagentStop':
      return { family: 'stop', decision: mergeStop(runs) }
    case 'PermissionRequest':
      return { family: 'permissionRequest', ...mergePermissionRequest(runs) }
    case 'UserPromptSubmit':
    case 'SessionStart':
    case 'SubagentStart':
    case 'PreCompact':
    case 'PostCompact':
      return { family: 'gate', ...mergeGate(runs) }
    case 'SessionEnd':
    case 'Interrupt':
    case 'PreModelRequest':
    case 'PostModelRequest':
      return { family: 'none' }
  }
}

function firstStopReason(runs: readonly MergeRun[]): string | undefined {
  for (const run of runs) if (run.outcome.stop?.reason !== undefined) return run.outcome.stop.reason
  return undefined
}
