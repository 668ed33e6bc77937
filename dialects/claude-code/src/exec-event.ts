import type { ModelProvider, ProcessRunner } from '@harness-kernel/kernel'
import { MATCHERLESS_EVENTS, type ProducedEvent, TOOL_EVENTS } from './events.js'
import { DEFAULT_ENV_FILE_DIR, handlerTimeoutSec, sessionEndBudgetMs, sessionEnvFile } from './handler-defaults.js'
import { type HookOutput, readHookOutput } from './io/hook-output.js'
import {
  type GateMerge,
  type MergeRun,
  mergeGate,
  mergePermissionRequest,
  mergePostToolUse,
  mergePreToolUse,
  type PermissionRequestMerge,
  type PostToolUseMerge,
  type PreToolUseMerge,
} from './io/merge.js'
import {
  additionalContextText,
  blockingErrorText,
  hookName,
  promptBlockedWarning,
  stopFeedbackText,
  successText,
  systemMessageNotice,
  toolErrorText,
} from './io/texts.js'
import { HandlerSelector, type RunnableHandler } from './plugin/handler-selector.js'
import { labelOf } from './plugin/run-event.js'
import {
  DEFAULT_HOOK_AGENT_NAME,
  dedupHandlers,
  type HandlerRunResult,
  type HandlerRunSpec,
  handlerDedupKey,
  hookEnv,
  type McpToolCaller,
  runHandlers,
} from './run/index.js'
import type { ClaudeHandler, LoadedClaudeCodeHooks } from './types.js'

export interface ExecClaudeCodeEventOptions {
  loaded: LoadedClaudeCodeHooks
  event: ProducedEvent
  /**
   * The payload's exact text. Every command handler gets it on stdin byte for byte, with one `\n` added when the text
   * does not already end with one: Claude Code's stdin always ends with a newline, and a hook that reads it with the
   * shell's `read` fails on a last line without one. A pretty-printed payload stays pretty-printed. The http body and a
   * prompt's `$ARGUMENTS` are the text without that final newline.
   */
  payload: string
  processRunner: ProcessRunner
  /** Where the handlers run (Claude Code: the session's current cwd, which the payload's `cwd` carries). */
  cwd: string
  /** The environment the handlers inherit (the dialect's variables are added over it). Default `process.env`. */
  env?: NodeJS.ProcessEnv
  /** The model prompt handlers ask; without it they fail (non-blocking). */
  model?: ModelProvider
  signal?: AbortSignal
  /** Default timeout of command and http handlers, seconds. Default 600, as the plugin's. */
  defaultTimeoutSec?: number
  /** SessionEnd handlers share this budget. Default `$CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`, else 1500 ms (at most 60 s). */
  sessionEndTimeoutMs?: number
  /** `CLAUDE_CODE_ENTRYPOINT` and `AI_AGENT`. Default `harness-kernel`. */
  entrypoint?: string
  /** SessionStart handlers get a `CLAUDE_ENV_FILE` under `<envFileDir>/<session_id>/`. Default `<tmpdir>/harness-claude-code/session-env`. */
  envFileDir?: string
  /** Used by http handlers. Default the global `fetch`. */
  fetch?: typeof fetch
  /** The MCP servers mcp_tool handlers call (`@harness-kernel/mcp`'s `McpClients`); without it they fail as with an unknown server. */
  mcpClients?: McpToolCaller
}

export interface ExecClaudeCodeEventRun {
  handler: RunnableHandler
  /** The configured command string, http URL, prompt or `<server>/<tool>`: the `<cmd>` of the texts. */
  label: string
  result: HandlerRunResult
  /** The run as Claude Code reads it. */
  output: HookOutput
  /** Finish order among all the handlers run (0 finished first). */
  completionIndex: number
  /** An `async` command: it ran here with the others, but a session would not wait for it, so it is not merged. */
  async: boolean
  /** The timeout it ran with, seconds. */
  timeoutSec: number
}

/** A handler of the event that matched the payload but did not run. */
export interface ExecClaudeCodeEventSkip {
  handler: ClaudeHandler
  /** `unsupported`: a type the kernel does not run (`agent`, unknown); `duplicate`: identical to `duplicateOf`, which ran. */
  reason: 'unsupported' | 'duplicate'
  duplicateOf?: string
}

/** The event's merge, tagged with the merge function used. */
export type ExecClaudeCodeMerged =
  | ({ family: 'preToolUse' } & PreToolUseMerge)
  | ({ family: 'permissionRequest' } & PermissionRequestMerge)
  | ({ family: 'postToolUse' } & PostToolUseMerge)
  | ({ family: 'gate' } & GateMerge)

/**
 * A text Claude Code would put before the model (claude-code-hooks.md §7): `tool_error` is the call's error (the call
 * does not run), `tool_output` replaces the call's output, `context` is a hook text next to the call or prompt,
 * `stop_feedback` continues the turn.
 */
export interface ExecModelText {
  kind: 'tool_error' | 'tool_output' | 'context' | 'stop_feedback'
  text: string
}

export interface ExecClaudeCodeEventResult {
  event: ProducedEvent
  /** The matcher subject read from the payload; undefined for events without a matcher. */
  subject: string | undefined
  /** `<Event>:<tool>` on tool events, else the event name, as the texts call the hook. */
  hookName: string
  /** The exact bytes the command handlers got on stdin. */
  stdin: string
  /** Every handler that ran, in configuration order. */
  runs: ExecClaudeCodeEventRun[]
  skipped: ExecClaudeCodeEventSkip[]
  merged: ExecClaudeCodeMerged
  /** What the model would see, in the order the dialect places it. */
  modelTexts: ExecModelText[]
  /** What the user would see (notices): `systemMessage`s, failures, blocked-prompt warnings, stop reasons. Never model-visible. */
  notices: string[]
  /** Selection problems: invalid matchers, `if` rules that failed open, a payload naming another event. */
  warnings: string[]
}

const SUBJECT_FIELD: Readonly<Record<ProducedEvent, string | undefined>> = {
  PreToolUse: 'tool_name',
  PermissionRequest: 'tool_name',
  PermissionDenied: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  SessionStart: 'source',
  SessionEnd: 'reason',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  Notification: 'notification_type',
  StopFailure: 'error',
  Interrupt: 'source',
  UserPromptSubmit: undefined,
  Stop: undefined,
  PostToolBatch: undefined,
  MessageDisplay: undefined,
}

/** The payload field an event's matcher is tested against; undefined for events whose matcher is ignored. */
export function matcherSubjectField(event: ProducedEvent): string | undefined {
  return MATCHERLESS_EVENTS.has(event) ? undefined : SUBJECT_FIELD[event]
}

/**
 * Runs the handlers one Claude Code event would run for `payload`, as a dry run of that event (`harness hooks exec
 * claude-code`): handlers are selected as the plugin selects them (the matcher against the payload's subject, the `if`
 * rule against `tool_name`/`tool_input`), identical ones once, all at once, then merged with the event's merge function.
 * Also returns the texts the model and the user would see. Throws when the payload is not a JSON object.
 */
export async function execClaudeCodeEvent(options: ExecClaudeCodeEventOptions): Promise<ExecClaudeCodeEventResult> {
  const { event, loaded } = options
  const parsed = parsePayload(options.payload, event)
  const warnings: string[] = []
  if (typeof parsed.hook_event_name === 'string' && parsed.hook_event_name !== event) {
    warnings.push(`the payload's hook_event_name is ${JSON.stringify(parsed.hook_event_name)}, not ${JSON.stringify(event)}`)
  }
  const field = matcherSubjectField(event)
  const subject = field === undefined ? undefined : stringOf(parsed[field])
  const tool = TOOL_EVENTS.has(event) ? { name: stringOf(parsed.tool_name), input: parsed.tool_input } : undefined
  const name = hookName(event, tool?.name)

  const selected = new HandlerSelector(loaded, (text) => warnings.push(text)).select({ event, subject, tool, cwd: options.cwd })
  const handlers = dedupHandlers(selected.runnable)
  const skipped: ExecClaudeCodeEventSkip[] = [
    ...duplicates(selected.runnable, handlers),
    ...selected.unsupported.map((handler): ExecClaudeCodeEventSkip => ({ handler, reason: 'unsupported' })),
  ]

  const stdin = options.payload.endsWith('\n') ? options.payload : `${options.payload}\n`
  const sessionId = stringOf(parsed.session_id)
  const effort = effortOf(parsed.effort)
  const envFile = event === 'SessionStart' ? sessionEnvFile(options.envFileDir ?? DEFAULT_ENV_FILE_DIR, sessionId, 0) : undefined
  const entrypoint = options.entrypoint ?? DEFAULT_HOOK_AGENT_NAME
  const parentEnv = options.env ?? process.env
  const inherited = options.env === undefined ? {} : replacingEnv(options.env)
  const budgetMs = event === 'SessionEnd' ? sessionEndBudgetMs(options.sessionEndTimeoutMs, parentEnv) : undefined
  const timeoutMs = (handler: RunnableHandler) => {
    const ms = Math.max(1, Math.round(handlerTimeoutSec(handler, options.defaultTimeoutSec) * 1000))
    return budgetMs === undefined ? ms : Math.min(ms, budgetMs)
  }
  const specs = handlers.map(
    (handler): HandlerRunSpec => ({
      handler,
      stdin,
      cwd: options.cwd,
      env: {
        ...inherited,
        ...hookEnv({
          projectDir: loaded.projectDir,
          sessionId,
          event,
          effort,
          plugin: handler.plugin,
          envFile,
          entrypoint,
          agentName: entrypoint,
          parentEnv,
        }),
      },
      timeoutMs: timeoutMs(handler),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
  )
  const results = await runHandlers(
    { processRunner: options.processRunner, model: options.model, fetch: options.fetch, mcpClients: options.mcpClients },
    specs,
  )
  const runs = handlers.map((handler, index): ExecClaudeCodeEventRun => {
    const result = results[index]!
    const timeoutSec = timeoutMs(handler) / 1000
    const label = labelOf(handler)
    const output = readHookOutput(result, {
      event,
      timeoutSec,
      continueOnBlock: handler.type === 'prompt' && handler.continueOnBlock,
      onFailure: handler.type === 'mcp_tool' ? handler.onFailure : undefined,
      label,
    })
    const async = handler.type === 'command' && handler.async
    return { handler, label, result, output, completionIndex: result.completionIndex, async, timeoutSec }
  })

  const mergeRuns: MergeRun[] = runs
    .filter((run) => !run.async)
    .map((run) => ({ label: run.label, output: run.output, completionIndex: run.completionIndex }))
  const merged = mergeFor(event, mergeRuns)
  const notices = runNotices(name, runs)
  const modelTexts = modelTextsFor(event, name, merged, parsed, notices)
  for (const run of runs.filter((candidate) => candidate.async)) {
    const context = run.output.json?.hookSpecificOutput?.additionalContext
    // A session keeps an async handler's context for the next prompt.
    if (context !== undefined) modelTexts.push({ kind: 'context', text: additionalContextText(hookName('UserPromptSubmit'), context) })
  }
  return { event, subject, hookName: name, stdin, runs, skipped, merged, modelTexts, notices, warnings }
}

function parsePayload(text: string, event: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`the ${event} payload is not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`the ${event} payload must be a JSON object`)
  return value as Record<string, unknown>
}

/** A missing or non-string field is the empty string (it then matches only match-all matchers). */
function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value)
}

function effortOf(value: unknown): string | undefined {
  const level = (value as { level?: unknown } | null | undefined)?.level
  return typeof level === 'string' ? level : undefined
}

/** The overlay that makes a hook's environment `env` rather than the process's. */
function replacingEnv(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const overlay: Record<string, string | undefined> = {}
  for (const name of Object.keys(process.env)) if (!Object.hasOwn(env, name)) overlay[name] = undefined
  return { ...overlay, ...env }
}

function duplicates(matched: readonly RunnableHandler[], kept: readonly RunnableHandler[]): ExecClaudeCodeEventSkip[] {
  const firstByKey = new Map<string, RunnableHandler>()
  for (const handler of kept) {
    const key = handlerDedupKey(handler)
    if (key !== undefined) firstByKey.set(key, handler)
  }
  return matched
    .filter((handler) => !kept.includes(handler))
    .map((handler) => {
      const first = firstByKey.get(handlerDedupKey(handler) ?? '')
      return { handler, reason: 'duplicate' as const, ...(first === undefined ? {} : { duplicateOf: first.key }) }
    })
}

function mergeFor(event: ProducedEvent, runs: readonly MergeRun[]): ExecClaudeCodeMerged {
  switch (event) {
    case 'PreToolUse':
      return { family: 'preToolUse', ...mergePreToolUse(runs) }
    case 'PermissionRequest':
      return { family: 'permissionRequest', ...mergePermissionRequest(runs) }
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { family: 'postToolUse', ...mergePostToolUse(runs) }
    default:
      return { family: 'gate', ...mergeGate(runs) }
  }
}

/** The per-run notices a session shows: failures (not cancellations), then each `systemMessage`. */
function runNotices(name: string, runs: readonly ExecClaudeCodeEventRun[]): string[] {
  const notices: string[] = []
  for (const run of runs) {
    if (run.output.error !== undefined && run.output.status !== 'cancelled')
      notices.push(`${name} hook ${run.label} failed: ${run.output.error}`)
    const message = run.output.json?.systemMessage
    if (message !== undefined) notices.push(systemMessageNotice(name, message))
  }
  return notices
}

/** What the plugin's taps put before the model for one occurrence; user-only outcomes go to `notices`. */
function modelTextsFor(
  event: ProducedEvent,
  name: string,
  merged: ExecClaudeCodeMerged,
  payload: Record<string, unknown>,
  notices: string[],
): ExecModelText[] {
  const contexts = (texts: readonly string[]): ExecModelText[] =>
    texts.map((text) => ({ kind: 'context', text: additionalContextText(name, text) }))
  const stopNotice = () => {
    if (merged.stop) notices.push(merged.stop.reason ?? `a ${event} hook stopped the turn (continue: false)`)
  }
  switch (merged.family) {
    case 'preToolUse': {
      stopNotice()
      const texts: ExecModelText[] = []
      if (merged.exit2 !== undefined) texts.push({ kind: 'tool_error', text: toolErrorText(name, merged.exit2) })
      else if (merged.verdict === 'deny') texts.push({ kind: 'tool_error', text: toolErrorText(name, merged.reason ?? 'denied') })
      else if (merged.verdict === 'defer')
        texts.push({ kind: 'tool_error', text: `The call was deferred by a PreToolUse hook${merged.reason ? `: ${merged.reason}` : ''}` })
      // Headless (no approver), a hook's `ask` denies the call with its reason alone.
      else if (merged.verdict === 'ask') texts.push({ kind: 'tool_error', text: merged.reason ?? 'A PreToolUse hook asked for approval' })
      return [...texts, ...contexts(merged.contexts)]
    }
    case 'permissionRequest':
      return merged.behavior === 'deny' ? [{ kind: 'tool_error', text: merged.message ?? '' }] : []
    case 'postToolUse': {
      stopNotice()
      const texts: ExecModelText[] = []
      if (merged.updatedToolOutput !== undefined) {
        const output = typeof merged.updatedToolOutput === 'string' ? merged.updatedToolOutput : JSON.stringify(merged.updatedToolOutput)
        texts.push({ kind: 'tool_output', text: output })
      }
      texts.push(
        ...merged.blocks.map((block): ExecModelText => ({ kind: 'context', text: blockingErrorText(name, block.command, block.reason) })),
      )
      return [...texts, ...contexts(merged.contexts)]
    }
    case 'gate':
      return gateTexts(event, name, merged, payload, notices, contexts)
  }
}

function gateTexts(
  event: ProducedEvent,
  name: string,
  gate: GateMerge,
  payload: Record<string, unknown>,
  notices: string[],
  contexts: (texts: readonly string[]) => ExecModelText[],
): ExecModelText[] {
  const successes = gate.plainStdout.map((text): ExecModelText => ({ kind: 'context', text: successText(name, text) }))
  const firstBlock = gate.blocks[0]
  switch (event) {
    case 'UserPromptSubmit': {
      if (firstBlock !== undefined || gate.stop) {
        notices.push(promptBlockedWarning(firstBlock?.reason ?? gate.stop?.reason ?? 'blocked', stringOf(payload.prompt)))
        return []
      }
      return [...contexts(gate.contexts), ...successes]
    }
    case 'SessionStart':
      for (const block of gate.blocks) notices.push(`SessionStart hook error: ${block.reason}`)
      if (gate.stop) notices.push(gate.stop.reason ?? 'a SessionStart hook stopped the session')
      return [...contexts(gate.contexts), ...successes]
    case 'SubagentStart':
      for (const block of gate.blocks) notices.push(`SubagentStart hook error: ${block.reason}`)
      return contexts(gate.contexts)
    case 'Stop':
    case 'SubagentStop': {
      if (gate.stop) {
        if (gate.stop.reason) notices.push(gate.stop.reason)
        return []
      }
      return gate.blocks.map(
        (block): ExecModelText => ({
          kind: 'stop_feedback',
          text: block.form === 'exit2' ? stopFeedbackText(block.reason) : blockingErrorText(name, block.command, block.reason),
        }),
      )
    }
    case 'PostToolBatch':
      if (gate.stop) notices.push(gate.stop.reason ?? 'a PostToolBatch hook stopped the turn')
      else if (firstBlock !== undefined) notices.push(`PostToolBatch hook blocked the turn: ${firstBlock.reason}`)
      return []
    case 'PreCompact':
      if (gate.stop || firstBlock !== undefined)
        notices.push(gate.stop?.reason ?? `PreCompact hook blocked the compaction: ${firstBlock?.reason}`)
      return []
    default:
      return []
  }
}
