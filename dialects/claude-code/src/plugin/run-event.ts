import { type ModelProvider, type ProcessRunner, rootSession, type Session } from '@harness-kernel/kernel'
import { handlerTimeoutSec, sessionEnvFile } from '../handler-defaults.js'
import { type HookOutput, readHookOutput } from '../io/hook-output.js'
import type { MergeRun } from '../io/merge.js'
import { type CommonFields, claudePayload, payloadLine } from '../io/payload.js'
import { hookName, systemMessageNotice } from '../io/texts.js'
import { PLUGIN_NAME } from '../render/hook-text.js'
import { dedupHandlers, type HandlerRunResult, type HandlerRunSpec, hookEnv, type McpToolCaller, runHandlers } from '../run/index.js'
import type { ClaudeHandler } from '../types.js'
import type { RunnableHandler } from './handler-selector.js'
import type { ClaudeSessionState } from './session-state.js'

export const DIALECT = 'claude-code'

/** What every event run needs from the plugin. */
export interface DialectContext {
  /** Wraps a session's runner for command hooks (the `hookEnvironment` policy), or leaves it as it is. */
  runner: (session: Session) => ProcessRunner
  model: () => ModelProvider | undefined
  /** The `mcpClients` service mcp_tool handlers call, if a plugin provides one. */
  mcpClients: () => McpToolCaller | undefined
  effort: string | undefined
  defaultTimeoutSec: number
  entrypoint: string
  envFileDir: string
}

/** One occurrence of a Claude Code event. */
export interface EventOccurrence {
  event: string
  session: Session
  state: ClaudeSessionState
  turnId?: string | undefined
  /** The matcher subject (tool name, source, reason, agent type, trigger, …); undefined for matcherless events. */
  subject?: string | undefined
  /** Tool events: the Claude-shaped call, for `if` rules and `tool_use_id`. */
  tool?: { name: string; input: unknown; callId?: string | undefined } | undefined
  agent?: { id: string; type: string } | undefined
  /** The event's own payload fields, in Claude Code's order. */
  fields: Record<string, unknown>
  signal?: AbortSignal | undefined
  /** Caps every handler's timeout (SessionEnd's shared budget). */
  budgetMs?: number | undefined
  /** Runs are not waited for by the loop (observers); they still record. */
  detached?: boolean
}

/**
 * Runs every matching handler of one event occurrence as Claude Code does: identical commands once, all at once,
 * merged only when all have finished. Each run is recorded as `hook/run`; `systemMessage` and failures become notices,
 * never model input. Async command handlers run detached; their contexts wait for the next prompt.
 */
export async function runClaudeEvent(ctx: DialectContext, occurrence: EventOccurrence): Promise<MergeRun[]> {
  const { event, session, state } = occurrence
  const selected = state.selector.select({ event, subject: occurrence.subject, tool: occurrence.tool, cwd: session.cwd })
  reportSkipped(occurrence, selected.unsupported)
  const handlers = dedupHandlers(selected.runnable)
  if (handlers.length === 0) return []
  const root = rootSession(session)
  const common: CommonFields = {
    // Inside a subagent: the main session's id and transcript, and the agent (Claude Code 2.1.332, r23-subagent).
    sessionId: root.id,
    transcriptPath: state.transcript?.path ?? root.transcriptPath,
    cwd: session.cwd,
    promptId: state.promptId,
    permissionMode: state.permissions.payloadMode(session),
    agent: occurrence.agent ?? session.parent?.agent,
    effort: ctx.effort,
  }
  const stdin = payloadLine(claudePayload(event, common, occurrence.fields))
  const envFile = event === 'SessionStart' ? sessionEnvFile(ctx.envFileDir, session.id, state.sessionStartRuns++) : undefined
  const spec = (handler: RunnableHandler, signal: AbortSignal | undefined): HandlerRunSpec => ({
    handler,
    stdin,
    cwd: session.cwd,
    env: hookEnv({
      projectDir: state.loaded.projectDir,
      sessionId: root.id,
      event,
      effort: ctx.effort,
      plugin: handler.plugin,
      envFile,
      entrypoint: ctx.entrypoint,
      agentName: ctx.entrypoint,
    }),
    timeoutMs: timeoutMs(ctx, handler, occurrence.budgetMs),
    ...(signal === undefined ? {} : { signal }),
  })
  const services = { processRunner: ctx.runner(session), model: ctx.model(), mcpClients: ctx.mcpClients() }
  const background = handlers.filter((handler) => handler.type === 'command' && handler.async)
  for (const handler of background) {
    state.track(
      runHandlers(services, [spec(handler, state.detached.signal)]).then(([result]) => {
        if (state.detached.signal.aborted || !result) return
        const output = settle(ctx, occurrence, handler, result, 'async')
        const context = output.json?.hookSpecificOutput?.additionalContext
        if (context !== undefined) state.asyncContexts.push(context)
      }),
    )
  }
  const sync = handlers.filter((handler) => !background.includes(handler))
  const signal = occurrence.detached ? state.detached.signal : occurrence.signal
  const results = await runHandlers(
    services,
    sync.map((handler) => spec(handler, signal)),
  )
  return sync.map((handler, index) => {
    const result = results[index]!
    return { label: labelOf(handler), output: settle(ctx, occurrence, handler, result, 'sync'), completionIndex: result.completionIndex }
  })
}

/**
 * The configured command string (an http hook's URL, a prompt hook's prompt, an MCP tool hook's `<server>/<tool>`, as
 * Claude Code 2.1.332 names it in its texts): the `<cmd>` of texts.
 */
export function labelOf(handler: RunnableHandler): string {
  if (handler.type === 'command') return handler.command
  if (handler.type === 'http') return handler.url
  if (handler.type === 'mcp_tool') return `${handler.server}/${handler.tool}`
  return handler.prompt
}

function timeoutMs(ctx: DialectContext, handler: RunnableHandler, budgetMs: number | undefined): number {
  const ms = Math.max(1, Math.round(handlerTimeoutSec(handler, ctx.defaultTimeoutSec) * 1000))
  return budgetMs === undefined ? ms : Math.min(ms, budgetMs)
}

function hookNameOf(occurrence: EventOccurrence): string {
  return hookName(occurrence.event, occurrence.tool?.name)
}

/** Reads one run, records it, and tells the user what it said or what went wrong. */
function settle(
  ctx: DialectContext,
  occurrence: EventOccurrence,
  handler: RunnableHandler,
  result: HandlerRunResult,
  mode: 'sync' | 'async',
): HookOutput {
  const timeoutSec = Math.round(timeoutMs(ctx, handler, occurrence.budgetMs)) / 1000
  const output = readHookOutput(result, {
    event: occurrence.event,
    timeoutSec,
    continueOnBlock: handler.type === 'prompt' && handler.continueOnBlock,
    onFailure: handler.type === 'mcp_tool' ? handler.onFailure : undefined,
    label: labelOf(handler),
  })
  const { session } = occurrence
  const name = hookNameOf(occurrence)
  try {
    session.recordHookRun({
      dialect: DIALECT,
      id: `${occurrence.event}:${handler.key}${occurrence.tool?.callId === undefined ? '' : `:${occurrence.tool.callId}`}`,
      event: occurrence.event,
      hookName: name,
      handlerType: handler.type,
      command: labelOf(handler),
      key: handler.key,
      source: handler.source,
      sourcePath: handler.sourcePath,
      executionMode: mode,
      status: runStatus(output),
      outcome: output.status,
      decision: decisionOf(output),
      ...(output.error === undefined ? {} : { error: output.error }),
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: Math.round(result.durationMs),
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      ...(occurrence.turnId === undefined ? {} : { turnId: occurrence.turnId }),
      ...(occurrence.tool?.callId === undefined ? {} : { toolUseId: occurrence.tool.callId }),
      ...(occurrence.event === 'UserPromptSubmit' ? { prompt: occurrence.fields.prompt } : {}),
    })
    if (output.error !== undefined && output.status !== 'cancelled') {
      session.notice('warning', `${name} hook ${labelOf(handler)} failed: ${output.error}`, PLUGIN_NAME)
    }
    // Claude Code 2.1.336 ignores an Interrupt hook's output, its systemMessage included (nothing reached the SDK's stream).
    const message = occurrence.event === 'Interrupt' ? undefined : output.json?.systemMessage
    if (message !== undefined) session.notice('info', systemMessageNotice(name, message), PLUGIN_NAME)
  } catch {
    // The session ended while a detached run was finishing: nothing left to record into.
  }
  return output
}

function runStatus(output: HookOutput): 'completed' | 'failed' | 'blocked' | 'stopped' {
  if (output.json?.continue === false) return 'stopped'
  if (output.status === 'blocking' || output.json?.decision === 'block') return 'blocked'
  if (output.status === 'success') return 'completed'
  return output.json === undefined ? 'failed' : 'completed'
}

function decisionOf(output: HookOutput): string | undefined {
  if (output.status === 'blocking') return 'block'
  const json = output.json
  if (json === undefined) return undefined
  if (json.continue === false) return 'stop'
  const specific = json.hookSpecificOutput
  return specific?.permissionDecision ?? specific?.decision?.behavior ?? json.decision
}

function reportSkipped(occurrence: EventOccurrence, handlers: readonly ClaudeHandler[]): void {
  const { session, state } = occurrence
  for (const handler of handlers) {
    session.recordHookRun({
      dialect: DIALECT,
      id: `${occurrence.event}:${handler.key}`,
      event: occurrence.event,
      handlerType: handler.type,
      key: handler.key,
      source: handler.source,
      sourcePath: handler.sourcePath,
      status: 'completed',
      outcome: 'skipped',
      durationMs: 0,
      ...(occurrence.turnId === undefined ? {} : { turnId: occurrence.turnId }),
    })
    if (state.noticedSkips.has(handler.key)) continue
    state.noticedSkips.add(handler.key)
    session.notice(
      'warning',
      `${occurrence.event} hook ${handler.key} has type "${handler.type}", which the kernel does not run; it was skipped`,
      PLUGIN_NAME,
    )
  }
}
