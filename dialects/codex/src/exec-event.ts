import { type HookCommandResult, runHookCommands } from '@harness-kernel/hook-protocol'
import type { ProcessRunner } from '@harness-kernel/kernel'
import type { CodexEvent } from './events.js'
import { type HandlerOutcome, hookRunId, type MergedDecision, mergeOutcomes, parseHandlerOutput } from './io/index.js'
import { HandlerSelector } from './plugin/handler-selector.js'
import type { CodexHandler, LoadedCodexHooks } from './types.js'

export interface ExecCodexEventOptions {
  loaded: LoadedCodexHooks
  event: CodexEvent
  /** The exact stdin bytes every handler gets (a Codex payload). */
  payload: string
  processRunner: ProcessRunner
  /** Default: the payload's `cwd`, else the process's. */
  cwd?: string
  bypassTrust?: boolean
  shell?: string
  signal?: AbortSignal
}

export interface ExecCodexEventRun {
  handler: CodexHandler
  runId: string
  result: HookCommandResult
  outcome: HandlerOutcome
}

export interface ExecCodexEventResult {
  /** The matcher subject taken from the payload, if the event has one. */
  subject: string | undefined
  runs: ExecCodexEventRun[]
  merged: MergedDecision
}

const SUBJECT_FIELD: Partial<Record<CodexEvent, string>> = {
  PreToolUse: 'tool_name',
  PermissionRequest: 'tool_name',
  PostToolUse: 'tool_name',
  SessionStart: 'source',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  SessionEnd: 'reason',
}

/** Runs the handlers one event would run for `payload`, as a dry run of that event (`harness hooks exec`). */
export async function execCodexEvent(options: ExecCodexEventOptions): Promise<ExecCodexEventResult> {
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(options.payload) as Record<string, unknown>
  } catch (error) {
    throw new Error(`the ${options.event} payload is not JSON: ${(error as Error).message}`)
  }
  const field = SUBJECT_FIELD[options.event]
  const subject = field === undefined ? undefined : String(parsed[field] ?? '')
  const handlers = new HandlerSelector(options.loaded, options.bypassTrust ?? false)
    .select(options.event, subject === undefined ? undefined : [subject])
    .filter((handler) => !handler.async)
  const cwd = options.cwd ?? (typeof parsed.cwd === 'string' ? parsed.cwd : process.cwd())
  const toolEvent = options.event === 'PreToolUse' || options.event === 'PostToolUse'
  const toolUseId = toolEvent && typeof parsed.tool_use_id === 'string' ? parsed.tool_use_id : undefined
  const results = await runHookCommands(
    options.processRunner,
    handlers.map((handler) => ({
      command: handler.command,
      shell: options.shell ?? '/bin/bash',
      cwd,
      stdin: options.payload,
      timeoutMs: handler.timeoutSec * 1000,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })),
  )
  const runs = handlers.map((handler, index) => {
    const result = results[index]!
    const outcome = parseHandlerOutput(options.event, {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
      timeoutSec: handler.timeoutSec,
      spawnError: result.spawnError,
    })
    return { handler, runId: hookRunId(options.event, handler.displayOrder, handler.sourcePath, toolUseId), result, outcome }
  })
  const merged = mergeOutcomes(
    options.event,
    runs.map((run) => ({ outcome: run.outcome, completionIndex: run.result.completionIndex, runId: run.runId })),
  )
  return { subject, runs, merged }
}
