import {
  type DroppedHandler,
  type ExecClaudeCodeEventResult,
  type ExecClaudeCodeEventRun,
  type ExecClaudeCodeMerged,
  type ExecModelText,
  type HookOutput,
  matcherSubjectField,
  type ProducedEvent,
} from '@harness-kernel/claude-code'
import type { Style } from '../style.js'
import { indent, shortJson } from '../text.js'
import { runText } from './claude-hook-list.js'

export interface ClaudeHookExecRunJson {
  key: string
  type: string
  /** The configured command string, URL or prompt. */
  label: string
  source: string
  sourcePath: string
  async: boolean
  timeoutSec: number
  /** command: the exit code; http: 0 for a 2xx; prompt: 0 for a valid answer; null otherwise. */
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  aborted: boolean
  durationMs: number
  startedAt: number
  completedAt: number
  completionIndex: number
  stdout: string
  stderr: string
  httpStatus?: number
  verdict?: { ok: boolean; reason?: string }
  error?: string
  /** The run as Claude Code reads it: `status`, and `json`, `exit2Stderr`, `plainStdout` or `error`. */
  output: HookOutput
  /** The run's own decision in a few words (`deny: …`, `block (exit 2)`, …); null when it decided nothing. */
  decision: string | null
}

export interface ClaudeHookExecJson {
  dialect: 'claude-code'
  event: ProducedEvent
  subject: string | null
  hookName: string
  /** Whether a final newline was added to the payload to make the stdin. */
  newlineAdded: boolean
  runs: ClaudeHookExecRunJson[]
  skipped: { key: string; type: string; reason: 'unsupported' | 'duplicate'; duplicateOf?: string }[]
  /** The event's handlers dropped at load time (a gate, an unsupported type, a URL not allowed), with the reason. */
  dropped: { key: string; type: string; reason: string }[]
  merged: ExecClaudeCodeMerged
  modelTexts: ExecModelText[]
  notices: string[]
  /** Load warnings, then selection warnings. */
  warnings: string[]
}

export function claudeHookExecJson(
  result: ExecClaudeCodeEventResult,
  extra: { payload: string; dropped: readonly DroppedHandler[]; loadWarnings: readonly string[] },
): ClaudeHookExecJson {
  return {
    dialect: 'claude-code',
    event: result.event,
    subject: result.subject ?? null,
    hookName: result.hookName,
    newlineAdded: result.stdin !== extra.payload,
    runs: result.runs.map((run) => runJson(result.event, run)),
    skipped: result.skipped.map(({ handler, reason, duplicateOf }) => ({
      key: handler.key,
      type: handler.type,
      reason,
      ...(duplicateOf === undefined ? {} : { duplicateOf }),
    })),
    dropped: extra.dropped.map(({ handler, reason }) => ({ key: handler.key, type: handler.type, reason })),
    merged: result.merged,
    modelTexts: result.modelTexts,
    notices: result.notices,
    warnings: [...extra.loadWarnings, ...result.warnings],
  }
}

function runJson(event: ProducedEvent, run: ExecClaudeCodeEventRun): ClaudeHookExecRunJson {
  const { handler, result } = run
  return {
    key: handler.key,
    type: handler.type,
    label: run.label,
    source: handler.source,
    sourcePath: handler.sourcePath,
    async: run.async,
    timeoutSec: run.timeoutSec,
    exitCode: result.exitCode,
    signal: result.signal ?? null,
    timedOut: result.timedOut,
    aborted: result.aborted,
    durationMs: result.durationMs,
    startedAt: result.startedAt,
    completedAt: result.completedAt,
    completionIndex: run.completionIndex,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.httpStatus === undefined ? {} : { httpStatus: result.httpStatus }),
    ...(result.verdict === undefined ? {} : { verdict: result.verdict }),
    ...(result.error === undefined ? {} : { error: result.error }),
    output: run.output,
    decision: runDecision(event, run.output) ?? null,
  }
}

const LABEL = 12
const field = (label: string, text: string) => {
  const [first, ...rest] = text.split('\n')
  return [`${label.padEnd(LABEL)}${first}`, ...rest.map((line) => (line === '' ? '' : `${' '.repeat(LABEL)}${line}`))].join('\n')
}
const EXCERPT_LINES = 12
const EXCERPT_CHARS = 2000

/**
 * Each run in configuration order (key, what it runs, status with exit code and duration, stdout and stderr excerpts,
 * its own decision), the handlers that matched but did not run, then the merged decision, the texts the model would
 * see and the notices the user would see.
 */
export function renderClaudeHookExec(
  result: ExecClaudeCodeEventResult,
  extra: { dropped: readonly DroppedHandler[] },
  style: Style,
): string {
  const subject =
    result.subject === undefined ? '' : ` (${matcherSubjectField(result.event) ?? 'subject'} ${JSON.stringify(result.subject)})`
  const count = result.runs.length === 1 ? '1 handler ran' : `${result.runs.length} handlers ran`
  const lines = [style.bold(`${result.event}${subject}: ${count}`)]
  for (const run of result.runs) {
    const status = run.output.status
    const paint = status === 'success' ? style.green : status === 'blocking' ? style.yellow : style.red
    lines.push('', `${style.magenta('run')} ${run.handler.key}`, indent(field(run.handler.type, runText(run.handler) ?? run.label)))
    lines.push(indent(field('status', `${paint(status)} (${runFacts(run).join(', ')})`)))
    if (run.result.stdout !== '') lines.push(indent(field('stdout', excerpt(run.result.stdout))))
    if (run.result.stderr !== '') lines.push(indent(field('stderr', excerpt(run.result.stderr))))
    if (run.output.error !== undefined) lines.push(indent(field('error', run.output.error)))
    const decision = runDecision(result.event, run.output)
    if (decision !== undefined) lines.push(indent(field('decision', decision)))
  }
  if (result.skipped.length > 0 || extra.dropped.length > 0) {
    lines.push('', style.yellow('not run:'))
    for (const { handler, reason, duplicateOf } of result.skipped) {
      const why =
        reason === 'duplicate'
          ? `identical to ${duplicateOf ?? 'another handler'}, which ran: identical handlers run once`
          : `type "${handler.type}": the kernel does not run it`
      lines.push(indent(`${handler.key} (${why})`))
    }
    for (const { handler, reason } of extra.dropped) lines.push(indent(`${handler.key} (dropped: ${reason})`))
  }
  lines.push('', ...decisionLines(result, style))
  for (const text of result.modelTexts) lines.push(field('model sees', `[${textKind(text.kind)}] ${text.text}`))
  for (const notice of result.notices) lines.push(field('user sees', notice))
  return lines.join('\n')
}

function runFacts(run: ExecClaudeCodeEventRun): string[] {
  const { result } = run
  const facts: string[] = []
  if (run.async) facts.push('async: a session would not wait for it')
  if (result.timedOut) facts.push(`timed out after ${run.timeoutSec} s`)
  else if (result.aborted) facts.push('cancelled')
  else if (result.kind === 'http') facts.push(result.httpStatus === undefined ? 'no response' : `HTTP ${result.httpStatus}`)
  else if (result.kind === 'prompt') facts.push(result.verdict === undefined ? 'no verdict' : `ok: ${result.verdict.ok}`)
  else if (result.exitCode !== null) facts.push(`exit ${result.exitCode}`)
  else if (result.signal !== undefined) facts.push(`signal ${result.signal}`)
  else facts.push('no exit code')
  facts.push(`${Math.round(result.durationMs)} ms`)
  return facts
}

function excerpt(text: string): string {
  let body = text.replace(/\n$/, '')
  let cut = false
  const lines = body.split('\n')
  if (lines.length > EXCERPT_LINES) {
    body = lines.slice(0, EXCERPT_LINES).join('\n')
    cut = true
  }
  if (body.length > EXCERPT_CHARS) {
    body = body.slice(0, EXCERPT_CHARS)
    cut = true
  }
  return cut ? `${body}\n… (${text.length} characters in all; --json has them)` : body
}

/** One run's own decision, in a few words; undefined when it decided nothing. */
function runDecision(event: ProducedEvent, output: HookOutput): string | undefined {
  if (output.status === 'blocking') return `block (exit 2): ${firstLineOf(output.exit2Stderr ?? '')}`
  const json = output.json
  if (json === undefined) return output.plainStdout === undefined ? undefined : 'none (plain stdout)'
  const parts: string[] = []
  const specific = json.hookSpecificOutput
  if (json.continue === false) parts.push(`stop (continue: false)${json.stopReason === undefined ? '' : `: ${json.stopReason}`}`)
  if (specific?.permissionDecision !== undefined) {
    const reason = specific.permissionDecisionReason
    parts.push(`${specific.permissionDecision}${reason === undefined ? '' : `: ${reason}`}`)
  }
  if (specific?.decision !== undefined) {
    const { behavior, message } = specific.decision
    parts.push(`${behavior}${message === undefined ? '' : `: ${message}`}`)
  }
  if (json.decision !== undefined) parts.push(`${json.decision}${json.reason === undefined ? '' : `: ${json.reason}`}`)
  if (specific?.updatedInput !== undefined && event === 'PreToolUse') parts.push(`updatedInput ${shortJson(specific.updatedInput, 120)}`)
  if (specific?.decision?.updatedInput !== undefined) parts.push(`updatedInput ${shortJson(specific.decision.updatedInput, 120)}`)
  if (specific !== undefined && 'updatedToolOutput' in specific)
    parts.push(`updatedToolOutput ${shortJson(specific.updatedToolOutput, 120)}`)
  if (specific?.additionalContext !== undefined) parts.push(`additionalContext ${shortJson(specific.additionalContext, 120)}`)
  if (json.systemMessage !== undefined) parts.push(`systemMessage ${shortJson(json.systemMessage, 120)}`)
  return parts.length === 0 ? 'none (JSON without a decision)' : parts.join('; ')
}

function firstLineOf(text: string): string {
  return text.split('\n')[0] ?? ''
}

const OBSERVERS: ReadonlySet<string> = new Set(['SessionEnd', 'Notification', 'PostCompact', 'StopFailure', 'MessageDisplay'])

function decisionLines(result: ExecClaudeCodeEventResult, style: Style): string[] {
  const merged = result.merged
  const decision = (text: string) => field('decision', text)
  const stopped =
    merged.stop === undefined ? [] : [field('stopped', `continue: false${merged.stop.reason ? `: ${merged.stop.reason}` : ''}`)]
  switch (merged.family) {
    case 'preToolUse': {
      let text: string
      if (merged.exit2 !== undefined) text = `${style.red('blocked')} (exit 2): the call does not run`
      else if (merged.verdict === 'deny') text = `${style.red('deny')}: the call does not run`
      else if (merged.verdict === 'defer') text = `${style.yellow('defer')}: the call does not run and the turn halts (tool_deferred)`
      else if (merged.verdict === 'ask') text = `${style.yellow('ask')}: without an approver the call is denied; with one, it decides`
      else if (merged.verdict === 'allow')
        text = merged.updatedInput === undefined ? 'allow' : `allow, input replaced with ${shortJson(merged.updatedInput, 200)}`
      else text = 'none: the call proceeds'
      // Claude Code runs the tool before it halts the turn (the plugin's `haltBeforeTool` fix halts first).
      return [decision(text), ...stopped]
    }
    case 'permissionRequest': {
      if (merged.behavior === 'deny')
        return [decision(`${style.red('deny')}${merged.interrupt ? ', and the turn is interrupted' : ''}`), ...stopped]
      if (merged.behavior === 'allow') {
        const input = merged.updatedInput === undefined ? '' : `, input replaced with ${shortJson(merged.updatedInput, 200)}`
        return [decision(`allow${input}`), ...stopped]
      }
      return [decision('none: the approval request follows'), ...stopped]
    }
    case 'postToolUse': {
      const blocks = merged.blocks.length
      const output = merged.updatedToolOutput === undefined ? 'output kept' : 'output replaced'
      const text = blocks === 0 ? output : `${style.yellow('blocked')} (${blocks} blocking ${blocks === 1 ? 'error' : 'errors'}), ${output}`
      return [decision(text), ...stopped]
    }
    case 'gate': {
      if (OBSERVERS.has(result.event)) return [decision(`none (${result.event} decides nothing)`), ...stopped]
      const block = merged.blocks[0]
      if (merged.stop) return [decision(`${style.red('stop')} (continue: false)${merged.stop.reason ? `: ${merged.stop.reason}` : ''}`)]
      if (block === undefined) {
        return [decision(result.event === 'Stop' || result.event === 'SubagentStop' ? 'none: the turn ends' : 'proceed')]
      }
      switch (result.event) {
        case 'Stop':
        case 'SubagentStop':
          return [decision(`${style.yellow('continue')}: the turn goes on with one more request`)]
        case 'UserPromptSubmit':
          return [decision(`${style.red('blocked')}: the prompt is dropped`)]
        case 'PreCompact':
          return [decision(`${style.red('blocked')}: no compaction`)]
        case 'PostToolBatch':
          return [decision(`${style.red('blocked')}: the turn halts`)]
        default:
          return [decision(`blocked, shown to the user only: ${firstLineOf(block.reason)}`)]
      }
    }
  }
}

function textKind(kind: ExecModelText['kind']): string {
  switch (kind) {
    case 'tool_error':
      return 'tool error'
    case 'tool_output':
      return 'tool output'
    case 'context':
      return 'context'
    case 'stop_feedback':
      return 'continuation'
  }
}
