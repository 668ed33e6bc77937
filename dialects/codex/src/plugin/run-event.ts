import {
  capHookText,
  excerptHookText,
  HOOK_RECORD_EXCERPT_BYTES,
  type HookCommandResult,
  runHookCommand,
  runHookCommands,
} from '@harness-kernel/hook-protocol'
import { type ProcessRunner, rootSession, type Session } from '@harness-kernel/kernel'
import { type CodexEvent, eventCamel } from '../events.js'
import type { HandlerOutcome, HookOutputEntry, MergeRun } from '../io/index.js'
import { hookRunId, parseHandlerOutput, spillIfLarge } from '../io/index.js'
import { type CodexPayloadFields, codexPayload } from '../io/payload.js'
import type { CodexHandler } from '../types.js'
import type { CodexSessionState } from './codex-session.js'

export const DIALECT = 'codex'
export const PLUGIN_NAME = 'codex-hooks'

export interface DialectContext {
  /** Wraps a session's runner for hook commands (the `hookEnvironment` policy), or leaves it as it is. */
  runner: (session: Session) => ProcessRunner
  shell: string
  /** Fixed by the plugin's option; else the session's approval policy says (see `permissionModeOf`). */
  permissionMode: 'default' | 'bypassPermissions' | undefined
}

/** One occurrence of a Codex event. */
export interface EventOccurrence {
  event: CodexEvent
  session: Session
  state: CodexSessionState
  turnId?: string | undefined
  toolUseId?: string | undefined
  /** PreModelRequest, PostModelRequest: the kernel's id of the model call (its runs' ids end with it). */
  requestId?: string | undefined
  /** Matcher subjects; undefined for events whose matcher Codex ignores. */
  subjects?: readonly string[] | undefined
  /** The event's own payload fields; the common ones are filled in here. */
  fields: Partial<CodexPayloadFields>
  signal?: AbortSignal | undefined
  tmpDir?: string | undefined
}

const THREAD_SCOPED: ReadonlySet<CodexEvent> = new Set(['SessionStart', 'SubagentStart'])

/**
 * Runs every matching handler of one event occurrence as Codex does: synchronous handlers start at once and are
 * merged in display order once all have finished; async handlers run detached and only feed later contexts.
 * Every run is recorded as a `hook/run` event; failures and `systemMessage` become notices, never model input.
 */
export async function runCodexEvent(ctx: DialectContext, occurrence: EventOccurrence): Promise<MergeRun[]> {
  const { event, session, state } = occurrence
  const handlers = state.selector.select(event, occurrence.subjects)
  if (handlers.length === 0) return []
  const agent = session.parent?.agent
  const stdin = codexPayload(event, {
    // Inside a subagent the session is the main one; turn ids and the transcript stay the subagent's (§5.2).
    sessionId: rootSession(session).id,
    ...(agent === undefined ? {} : { subagent: { agentId: agent.id, agentType: agent.type } }),
    transcriptPath: session.transcriptPath,
    cwd: session.cwd,
    model: state.model,
    permissionMode: ctx.permissionMode ?? permissionModeOf(session),
    ...(occurrence.turnId === undefined ? {} : { turnId: occurrence.turnId }),
    ...occurrence.fields,
  })
  const spec = (handler: CodexHandler, signal: AbortSignal | undefined) => ({
    command: handler.command,
    shell: ctx.shell,
    cwd: session.cwd,
    stdin,
    timeoutMs: handler.timeoutSec * 1000,
    ...(signal === undefined ? {} : { signal }),
  })
  for (const handler of handlers.filter((candidate) => candidate.async)) {
    void runHookCommand(ctx.runner(session), spec(handler, state.asyncRuns.signal)).then((result) => {
      if (state.asyncRuns.signal.aborted) return
      const outcome = settle(occurrence, handler, result, 'async')
      state.asyncContexts.push(...outcome.contexts)
    })
  }
  const sync = handlers.filter((handler) => !handler.async)
  const results = await runHookCommands(
    ctx.runner(session),
    sync.map((handler) => spec(handler, occurrence.signal)),
  )
  return sync.map((handler, index) => {
    const result = results[index]!
    return {
      outcome: settle(occurrence, handler, result, 'sync'),
      completionIndex: result.completionIndex,
      runId: runIdOf(occurrence, handler),
    }
  })
}

function runIdOf(occurrence: EventOccurrence, handler: CodexHandler): string {
  return hookRunId(occurrence.event, handler.displayOrder, handler.sourcePath, occurrence.toolUseId ?? occurrence.requestId)
}

/** Parses one run, records it in the session log and tells the user what went wrong. */
function settle(occurrence: EventOccurrence, handler: CodexHandler, result: HookCommandResult, mode: 'sync' | 'async'): HandlerOutcome {
  const outcome = parseHandlerOutput(occurrence.event, {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    timeoutSec: handler.timeoutSec,
    spawnError:
      result.spawnError ?? (result.exitCode === null && !result.timedOut && result.signal ? `killed by ${result.signal}` : undefined),
  })
  const { session } = occurrence
  const id = runIdOf(occurrence, handler)
  try {
    session.recordHookRun({
      dialect: DIALECT,
      id,
      event: occurrence.event,
      eventName: eventCamel(occurrence.event),
      key: handler.key,
      command: handler.command,
      source: handler.source,
      sourcePath: handler.sourcePath,
      displayOrder: handler.displayOrder,
      executionMode: mode,
      scope: THREAD_SCOPED.has(occurrence.event) ? 'thread' : 'turn',
      status: outcome.status,
      ...(handler.statusMessage === undefined ? {} : { statusMessage: handler.statusMessage }),
      entries: outcome.entries.map(recordedEntry),
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: Math.round(result.durationMs),
      startedAt: Math.floor(result.startedAt / 1000),
      completedAt: Math.floor(result.completedAt / 1000),
      ...(occurrence.turnId === undefined ? {} : { turnId: occurrence.turnId }),
      ...(occurrence.toolUseId === undefined ? {} : { toolUseId: occurrence.toolUseId }),
    })
    for (const entry of outcome.entries) {
      if (entry.kind === 'warning') session.notice('warning', `${occurrence.event} hook: ${entry.text}`, PLUGIN_NAME)
      if (entry.kind === 'error')
        session.notice('warning', `${occurrence.event} hook failed (${handler.command}): ${entry.text}`, PLUGIN_NAME)
    }
  } catch {
    // The session ended while an async run was finishing: nothing left to record into.
  }
  return spillOutcome(outcome, handler, session.id, occurrence.tmpDir)
}

/**
 * A long block reason, feedback, stop reason or error is also what the model or the user gets (a tool result, a
 * continuation prompt, a notice, each logged there, or Codex's spill file): the record keeps an excerpt whose marker
 * says how long the text was, so the log holds a large text once. Contexts stay whole (the model gets a spill preview).
 */
function recordedEntry(entry: HookOutputEntry): HookOutputEntry {
  if (entry.kind === 'context' || entry.kind === 'warning') return entry
  const half = HOOK_RECORD_EXCERPT_BYTES / 2
  return { kind: entry.kind, text: excerptHookText(entry.text, half, half) }
}

/**
 * Oversized texts reach the model as Codex's preview (the full text is in the spill file); texts Codex does not spill
 * (a PreToolUse or UserPromptSubmit block reason, a PermissionRequest denial) are capped with `capHookText`. Contexts
 * under `additionalContextLimit: 0` stay whole, as configured.
 */
function spillOutcome(outcome: HandlerOutcome, handler: CodexHandler, threadId: string, tmpDir: string | undefined): HandlerOutcome {
  const spill = (text: string, limit: number | undefined) => spillIfLarge(text, { limit, threadId, tmpDir }).text
  const spilled: HandlerOutcome = { ...outcome, contexts: outcome.contexts.map((text) => spill(text, handler.additionalContextLimit)) }
  if (outcome.feedback !== undefined) spilled.feedback = spill(outcome.feedback, undefined)
  if (outcome.block)
    spilled.block = {
      reason:
        handler.event === 'Stop' || handler.event === 'SubagentStop'
          ? spill(outcome.block.reason, undefined)
          : capHookText(outcome.block.reason),
    }
  if (outcome.permission?.behavior === 'deny') spilled.permission = { behavior: 'deny', message: capHookText(outcome.permission.message) }
  return spilled
}

/** Codex's `permission_mode`: `bypassPermissions` when the approval policy is never, `default` otherwise (codex-hooks.md). */
function permissionModeOf(session: Session): 'default' | 'bypassPermissions' {
  return session.guardrails.policy.approval === 'never' ? 'bypassPermissions' : 'default'
}
