import type { KernelApi, PreToolDecision } from '@harness-kernel/kernel'
import { PLUGIN_NAME } from '../render/hook-text.js'
import { claudeView, runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * Claude Code's permissions on the kernel's tool points: a tool a tool-wide deny takes away is not offered to the model;
 * a file a Read or Edit deny rule covers is refused before any hook runs (`tapPermissionsBeforeHooks`); after the
 * PreToolUse hooks, the rules and the mode decide (`tapPermissionsAfterHooks`). An ask goes the kernel's way
 * (PermissionRequest hooks, then the approver); the kernel's guardrails judge the call too, and it runs only if both let it.
 */
export function tapPermissionsBeforeHooks(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.modelRequest.tap(PLUGIN_NAME, (request, { session }) => {
    const removed = stateOf(ctx, session)?.permissions.removed
    if (removed === undefined || removed.size === 0) return request
    const claudeName = (name: string) => ctx.tools.get(name)?.aliases?.claudeCode ?? name
    return { ...request, tools: request.tools.filter((tool) => !removed.has(claudeName(tool.name))) }
  })

  kernel.hooks.toolPreExecute.tap(PLUGIN_NAME, (decision, { session, call }): PreToolDecision => {
    const state = stateOf(ctx, session)
    // A tool the kernel does not have is the driven program's own (Claude Code's built-ins): its engine decides.
    if (state === undefined || decision.kind === 'deny' || ctx.tools.get(call.name) === undefined) return decision
    const view = claudeView(ctx, session, call)
    const refused = state.permissions.beforeHooks({ toolName: view.toolName, input: view.toolInput })
    if (refused === undefined) return decision
    state.refusedBeforeHooks.add(call.id)
    return { kind: 'deny', reason: refused, ...(decision.context ? { context: decision.context } : {}) }
  })
}

export function tapPermissionsAfterHooks(kernel: KernelApi, ctx: TapContext): void {
  kernel.hooks.toolPreExecute.tapPromise(PLUGIN_NAME, async (decision, { session, turn, call, signal }): Promise<PreToolDecision> => {
    const state = stateOf(ctx, session)
    if (state === undefined || state.refusedBeforeHooks.delete(call.id) || decision.kind === 'deny') return decision
    if (ctx.tools.get(call.name) === undefined) return decision
    const view = claudeView(ctx, session, call)
    // A hook's allow (or ask) skips the mode's prompt, not the rules: a deny or ask rule still holds.
    const hookDecided = state.hookAllows.delete(call.id) || state.hookAsks.has(call.id)
    const verdict = state.permissions.decide({ toolName: view.toolName, input: view.toolInput })
    const context = decision.context ? { context: decision.context } : {}
    if (verdict.behavior === 'deny' && (!hookDecided || verdict.rule !== undefined)) {
      if (verdict.permissionDenied !== undefined) {
        await runFor(ctx, session, {
          event: 'PermissionDenied',
          turnId: turn.id,
          subject: view.toolName,
          tool: { name: view.toolName, input: view.toolInput, callId: call.id },
          fields: { tool_name: view.toolName, tool_input: view.toolInput, tool_use_id: call.id, reason: verdict.permissionDenied },
          signal,
        })
      }
      return { kind: 'deny', reason: verdict.message, ...context }
    }
    if (verdict.behavior === 'ask' && decision.kind === 'allow' && (!hookDecided || verdict.rule !== undefined)) {
      state.permissions.asks.set(call.id, verdict)
      return { kind: 'ask', reason: verdict.message, ...context }
    }
    return decision
  })
}
