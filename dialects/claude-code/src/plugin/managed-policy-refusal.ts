import type { KernelApi, PreStepDecision } from '@harness-kernel/kernel'
import { PLUGIN_NAME } from '../render/hook-text.js'
import type { LoadedClaudeCodeHooks } from '../types.js'
import type { TapContext } from './tap-context.js'

/**
 * Why Claude Code would not run with these settings: a managed settings file or drop-in that exists but cannot be
 * read or parsed. Claude Code 2.1.332 refuses to start then (exit 1: "none of its settings are in effect. Fix or
 * remove it."), in 5 of 5 runs with bad JSON, a JSON array, a bad drop-in or an unreadable file.
 */
export function managedPolicyRefusal(loaded: LoadedClaudeCodeHooks): string | undefined {
  const unusable = loaded.sources.find((source) => source.source === 'managed' && source.error !== undefined)
  if (unusable === undefined) return undefined
  return `managed settings ${unusable.path} cannot be used (${unusable.error}); none of its settings are in effect, so no turn runs (Claude Code refuses to start). Fix or remove it`
}

/** With `managedPolicyFailure: 'refuse'`, every turn of a session whose managed policy is unusable halts before its first step. */
export function tapManagedPolicyRefusal(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.preStep.tapPromise(`${PLUGIN_NAME}-managed-policy`, async (decision, { session, step }): Promise<PreStepDecision> => {
    const refusal = ctx.states.get(session)?.refusal
    if (refusal === undefined || step > 1 || decision.kind !== 'enter') return decision
    return { ...decision, halt: { reason: refusal } }
  })
}
