import type { HookJson, HookOutput } from './hook-output.js'

/** One finished handler of an event occurrence. `label` is the configured command string (an http hook's URL). */
export interface MergeRun {
  label: string
  output: HookOutput
  /** 0 finished first. */
  completionIndex: number
}

export type PermissionVerdict = 'allow' | 'deny' | 'ask' | 'defer'

/** What every event shares: `continue:false`, `systemMessage`, contexts. */
export interface CommonMerge {
  /** `continue:false` from any handler (it wins over everything). */
  stop?: { reason: string | undefined }
  systemMessages: string[]
  /** Every handler's `additionalContext`, in completion order. */
  contexts: string[]
}

export interface PreToolUseMerge extends CommonMerge {
  /** Exit 2: the `[<cmd>]: <stderr>` reason of the first blocking handler in configuration order. */
  exit2?: string
  verdict?: PermissionVerdict
  /** The reason that goes with `verdict` (the first handler giving it, in configuration order). */
  reason?: string
  /** From the `allow` handler that finished last. */
  updatedInput?: Record<string, unknown>
}

export interface PermissionRequestMerge extends CommonMerge {
  behavior?: 'allow' | 'deny'
  message?: string
  interrupt: boolean
  updatedInput?: Record<string, unknown>
}

export interface PostToolUseMerge extends CommonMerge {
  /** Blocking texts' reasons with their command, in configuration order: exit 2 (`[<cmd>]: <stderr>`) or `decision:block`. */
  blocks: { command: string; reason: string }[]
  /** `updatedToolOutput` of the handler that finished last. */
  updatedToolOutput?: unknown
}

export interface GateMerge extends CommonMerge {
  /** Exit 2 or `decision:block`, in configuration order. */
  blocks: { command: string; reason: string; form: 'exit2' | 'json' }[]
  /** Exit-0 plain stdout, in completion order (context for UserPromptSubmit and SessionStart). */
  plainStdout: string[]
}

const RANK: Record<PermissionVerdict, number> = { deny: 4, defer: 3, ask: 2, allow: 1 }

function byCompletion(runs: readonly MergeRun[]): MergeRun[] {
  return [...runs].sort((a, b) => a.completionIndex - b.completionIndex)
}

function common(runs: readonly MergeRun[]): CommonMerge {
  const merged: CommonMerge = { systemMessages: [], contexts: [] }
  for (const run of runs) {
    const json = run.output.json
    if (json?.continue === false && merged.stop === undefined) merged.stop = { reason: json.stopReason }
    if (json?.systemMessage !== undefined) merged.systemMessages.push(json.systemMessage)
  }
  for (const run of byCompletion(runs)) {
    const context = run.output.json?.hookSpecificOutput?.additionalContext
    if (context !== undefined) merged.contexts.push(context)
  }
  return merged
}

function permissionOf(json: HookJson | undefined): { verdict: PermissionVerdict; reason: string | undefined } | undefined {
  const specific = json?.hookSpecificOutput
  if (specific?.permissionDecision !== undefined) return { verdict: specific.permissionDecision, reason: specific.permissionDecisionReason }
  if (json?.decision === 'approve') return { verdict: 'allow', reason: json.reason }
  if (json?.decision === 'block') return { verdict: 'deny', reason: json.reason }
  return undefined
}

/** deny > defer > ask > allow; `updatedInput` from the `allow` handler that finished last; every context kept. */
export function mergePreToolUse(runs: readonly MergeRun[]): PreToolUseMerge {
  const merged: PreToolUseMerge = common(runs)
  for (const run of runs) {
    if (run.output.status === 'blocking' && merged.exit2 === undefined) merged.exit2 = `[${run.label}]: ${run.output.exit2Stderr ?? ''}`
    const permission = permissionOf(run.output.json)
    if (permission && (merged.verdict === undefined || RANK[permission.verdict] > RANK[merged.verdict])) {
      merged.verdict = permission.verdict
      merged.reason = permission.reason
    }
  }
  for (const run of byCompletion(runs)) {
    const permission = permissionOf(run.output.json)
    const updated = run.output.json?.hookSpecificOutput?.updatedInput
    if (permission?.verdict === 'allow' && updated !== undefined) merged.updatedInput = updated
  }
  return merged
}

/** Any deny wins (its message); otherwise the last `allow` to finish gives `updatedInput`. */
export function mergePermissionRequest(runs: readonly MergeRun[]): PermissionRequestMerge {
  const merged: PermissionRequestMerge = { ...common(runs), interrupt: false }
  for (const run of runs) {
    const decision = run.output.json?.hookSpecificOutput?.decision
    if (decision?.behavior !== 'deny' || merged.behavior === 'deny') continue
    merged.behavior = 'deny'
    merged.message = decision.message
    merged.interrupt = decision.interrupt === true
  }
  if (merged.behavior === 'deny') return merged
  for (const run of byCompletion(runs)) {
    const decision = run.output.json?.hookSpecificOutput?.decision
    if (decision?.behavior !== 'allow') continue
    merged.behavior = 'allow'
    if (decision.updatedInput !== undefined) merged.updatedInput = decision.updatedInput
  }
  return merged
}

export function mergePostToolUse(runs: readonly MergeRun[]): PostToolUseMerge {
  const merged: PostToolUseMerge = { ...common(runs), blocks: [] }
  for (const run of runs) {
    if (run.output.status === 'blocking')
      merged.blocks.push({ command: run.label, reason: `[${run.label}]: ${run.output.exit2Stderr ?? ''}` })
    else if (run.output.json?.decision === 'block') merged.blocks.push({ command: run.label, reason: run.output.json.reason ?? '' })
  }
  for (const run of byCompletion(runs)) {
    const specific = run.output.json?.hookSpecificOutput
    if (specific !== undefined && 'updatedToolOutput' in specific) merged.updatedToolOutput = specific.updatedToolOutput
  }
  return merged
}

/** UserPromptSubmit, SessionStart, Stop, SubagentStop, PostToolBatch, PreCompact and the observers. */
export function mergeGate(runs: readonly MergeRun[]): GateMerge {
  const merged: GateMerge = { ...common(runs), blocks: [], plainStdout: [] }
  for (const run of runs) {
    if (run.output.status === 'blocking') {
      merged.blocks.push({ command: run.label, reason: `[${run.label}]: ${run.output.exit2Stderr ?? ''}`, form: 'exit2' })
    } else if (run.output.json?.decision === 'block') {
      merged.blocks.push({ command: run.label, reason: run.output.json.reason ?? '', form: 'json' })
    }
  }
  for (const run of byCompletion(runs)) if (run.output.plainStdout !== undefined) merged.plainStdout.push(run.output.plainStdout)
  return merged
}
