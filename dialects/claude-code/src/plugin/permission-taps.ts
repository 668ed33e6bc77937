import type { KernelApi, PreToolDecision, SandboxConfinement, ToolCall } from '@harness-kernel/kernel'
import type { ClaudeToolView } from '../io/tool-presentation.js'
import { PERMISSION_TEXTS } from '../permissions/index.js'
import { PLUGIN_NAME } from '../render/hook-text.js'
import type { SessionSandbox } from './session-sandbox.js'
import { claudeView, runFor, stateOf, type TapContext } from './tap-context.js'

/**
 * Claude Code's permissions on the kernel's tool points: a tool a tool-wide deny takes away is not offered to the model;
 * a file a Read or Edit deny rule covers is refused before any hook runs (`tapPermissionsBeforeHooks`); after the
 * PreToolUse hooks, the rules and the mode decide (`tapPermissionsAfterHooks`). An ask goes the kernel's way
 * (PermissionRequest hooks, then the approver); the kernel's guardrails judge the call too, and it runs only if both let it.
 */
export function tapPermissionsBeforeHooks(kernel: KernelApi, ctx: TapContext): void {
  // Only the native loop's requests can leave a tool out (`rendersOnly`: a driver builds its own); everywhere a call to a
  // removed tool is refused before its hooks run (below).
  kernel.hooks.modelRequest.tap({ name: PLUGIN_NAME, rendersOnly: true } as never, (request, { session }) => {
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
    let verdict = state.permissions.decide({ toolName: view.toolName, input: view.toolInput })
    const context = decision.context ? { context: decision.context } : {}
    // The model asked to run outside the sandbox (Claude Code's dangerouslyDisableSandbox): that is asked about in every
    // mode but bypassPermissions (observed: "Run outside of the sandbox", no suggestions), unless a rule denies first.
    if (unsandboxedRequest(state.permissions.sandbox, view, call) && verdict.behavior !== 'deny') {
      const mode = state.permissions.mode
      if (mode === 'dontAsk') verdict = { behavior: 'deny', message: PERMISSION_TEXTS.dontAsk('Bash') }
      else if (mode !== 'bypassPermissions') verdict = { behavior: 'ask', message: PERMISSION_TEXTS.runOutsideSandbox }
    }
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
    const confine = await sandboxConfinement(state.permissions.sandbox, view, call)
    // autoAllowBashIfSandboxed: a sandboxed command needs no prompt of the mode's (a rule's ask still holds).
    if (
      confine !== undefined &&
      state.permissions.sandbox.settings.autoAllowBashIfSandboxed &&
      verdict.behavior === 'ask' &&
      !verdict.rule
    ) {
      verdict = { behavior: 'allow' }
    }
    if (verdict.behavior === 'ask' && decision.kind === 'allow' && (!hookDecided || verdict.rule !== undefined)) {
      state.permissions.asks.set(call.id, verdict)
      return { kind: 'ask', reason: verdict.message, ...context, ...(confine ? { confine } : {}) }
    }
    return confine === undefined ? decision : { ...decision, confine }
  })

  kernel.hooks.toolPostExecute.tap(PLUGIN_NAME, (decision, { session, call, result }) => {
    const violations = stateOf(ctx, session)?.permissions.sandbox.violations(call.id) ?? ''
    if (violations === '' || decision.kind !== 'accept') return decision
    return { ...decision, output: `${decision.output ?? result.output}${violations}` }
  })

  kernel.hooks.sessionEnd.tapPromise(PLUGIN_NAME, async ({ session }) => {
    await ctx.states.get(session)?.permissions.sandbox.close()
  })
}

/** The model asked to run the call outside any sandbox (the shell tool's `sandbox_permissions: "require_escalated"`). */
const asksOutside = (call: ToolCall) =>
  (call.input as { sandbox_permissions?: unknown } | null)?.sandbox_permissions === 'require_escalated'

/** A Bash call the model asked to run outside Claude Code's sandbox, where the sandbox is on and lets it. */
function unsandboxedRequest(sandbox: SessionSandbox, view: ClaudeToolView, call: ToolCall): boolean {
  return sandbox.enabled && view.toolName === 'Bash' && sandbox.settings.allowUnsandboxedCommands && asksOutside(call)
}

/**
 * The confinement a Bash call of the kernel's runs under when Claude Code's sandbox is on, or undefined (the sandbox is
 * off, the call is not a Bash line, or it runs outside: `excludedCommands`, or the model asked and
 * `allowUnsandboxedCommands` lets it).
 */
async function sandboxConfinement(sandbox: SessionSandbox, view: ClaudeToolView, call: ToolCall): Promise<SandboxConfinement | undefined> {
  if (!sandbox.enabled || view.toolName !== 'Bash') return undefined
  const command = (view.toolInput as { command?: unknown }).command
  if (typeof command !== 'string') return undefined
  if (!sandbox.runsOutside(command, asksOutside(call))) return sandbox.confinement(call.id)
  if (unsandboxedRequest(sandbox, view, call)) sandbox.ranOutside.add(call.id)
  return undefined
}
