import {
  type CodexEvent,
  type CodexHandler,
  type ExecCodexEventResult,
  type ExecCodexEventRun,
  type HookOutputEntry,
  hookPromptText,
  type MergedDecision,
  preToolUseBlockText,
} from '@harness-kernel/codex'
import type { Style } from '../style.js'
import { firstLine, indent, shortJson } from '../text.js'

/** Why a handler of the event that matches the payload did not run. */
export type SkipReason = 'untrusted' | 'modified' | 'disabled' | 'async' | 'featureDisabled'

export interface SkippedHandler {
  handler: CodexHandler
  reason: SkipReason
}

export interface HookExecRunJson {
  id: string
  key: string
  command: string
  displayOrder: number
  source: string
  sourcePath: string
  status: string
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  durationMs: number
  startedAt: number
  completedAt: number
  stdout: string
  stderr: string
  spawnError?: string
  entries: HookOutputEntry[]
}

export interface HookExecJson {
  dialect: 'codex'
  event: CodexEvent
  subject: string | null
  bypassTrust: boolean
  runs: HookExecRunJson[]
  skipped: { key: string; command: string; displayOrder: number; reason: SkipReason }[]
  merged: MergedDecision
  warnings: string[]
}

export function hookExecJson(
  event: CodexEvent,
  result: ExecCodexEventResult,
  skipped: readonly SkippedHandler[],
  extra: { bypassTrust: boolean; warnings: string[] },
): HookExecJson {
  return {
    dialect: 'codex',
    event,
    subject: result.subject ?? null,
    bypassTrust: extra.bypassTrust,
    runs: result.runs.map(runJson),
    skipped: skipped.map(({ handler, reason }) => ({
      key: handler.key,
      command: handler.command,
      displayOrder: handler.displayOrder,
      reason,
    })),
    merged: result.merged,
    warnings: extra.warnings,
  }
}

function runJson(run: ExecCodexEventRun): HookExecRunJson {
  const { handler, result, outcome } = run
  return {
    id: run.runId,
    key: handler.key,
    command: handler.command,
    displayOrder: handler.displayOrder,
    source: handler.source,
    sourcePath: handler.sourcePath,
    status: outcome.status,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    startedAt: result.startedAt,
    completedAt: result.completedAt,
    stdout: result.stdout,
    stderr: result.stderr,
    ...(result.spawnError === undefined ? {} : { spawnError: result.spawnError }),
    entries: outcome.entries,
  }
}

const LABEL = 12
const field = (label: string, text: string) => {
  const [first, ...rest] = text.split('\n')
  return [`${label.padEnd(LABEL)}${first}`, ...rest.map((line) => `${' '.repeat(LABEL)}${line}`)].join('\n')
}

/** Each run in display order (id, command, status with exit code and duration, entries), what was skipped, then the decision. */
export function renderHookExec(
  event: CodexEvent,
  result: ExecCodexEventResult,
  skipped: readonly SkippedHandler[],
  payload: Record<string, unknown>,
  style: Style,
): string {
  const subject = result.subject === undefined ? '' : ` (${subjectLabel(event)} ${result.subject})`
  const count = result.runs.length === 1 ? '1 handler ran' : `${result.runs.length} handlers ran`
  const lines = [style.bold(`${event}${subject}: ${count}`)]
  for (const run of result.runs) {
    const paint = run.outcome.status === 'failed' ? style.red : run.outcome.status === 'completed' ? style.green : style.yellow
    lines.push(
      '',
      `${style.magenta('run')} ${run.runId}`,
      indent(field('command', run.handler.command)),
      indent(field('status', `${paint(run.outcome.status)} (${runFacts(run).join(', ')})`)),
    )
    for (const entry of run.outcome.entries) lines.push(indent(field(entry.kind, entry.text)))
  }
  if (skipped.length > 0) {
    lines.push('', style.yellow('not run:'))
    for (const { handler, reason } of skipped)
      lines.push(indent(`${handler.key} (${skipText(reason)}): ${firstLine(handler.command, 120)}`))
    if (skipped.some(({ reason }) => reason === 'untrusted' || reason === 'modified')) {
      lines.push(
        indent('trust a hook with `harness hooks trust KEY` (`harness hooks list` shows the keys), or run all of them once with'),
        indent('--dangerously-bypass-hook-trust'),
      )
    }
  }
  lines.push('', ...renderDecision(result.merged, payload, style))
  return lines.join('\n')
}

function runFacts(run: ExecCodexEventRun): string[] {
  const { result } = run
  const facts: string[] = []
  if (result.exitCode !== null) facts.push(`exit ${result.exitCode}`)
  else if (result.timedOut) facts.push('timed out')
  else if (result.signal !== null) facts.push(`signal ${result.signal}`)
  else facts.push('no exit code')
  facts.push(`${Math.round(result.durationMs)} ms`)
  return facts
}

function skipText(reason: SkipReason): string {
  switch (reason) {
    case 'untrusted':
      return 'untrusted'
    case 'modified':
      return 'modified since it was trusted'
    case 'disabled':
      return 'disabled: enabled = false'
    case 'async':
      return 'async: runs detached in a session, not here'
    case 'featureDisabled':
      return 'hooks are turned off: [features] hooks = false'
  }
}

function subjectLabel(event: CodexEvent): string {
  switch (event) {
    case 'PreToolUse':
    case 'PermissionRequest':
    case 'PostToolUse':
      return 'tool_name'
    case 'SessionStart':
      return 'source'
    case 'PreCompact':
    case 'PostCompact':
      return 'trigger'
    case 'SubagentStart':
    case 'SubagentStop':
      return 'agent_type'
    default:
      return 'reason'
  }
}

function renderDecision(merged: MergedDecision, payload: Record<string, unknown>, style: Style): string[] {
  const decision = (text: string) => field('decision', text)
  const contexts = (texts: readonly string[]) => texts.map((text) => field('context', text))
  switch (merged.family) {
    case 'preToolUse': {
      if (merged.blocked) {
        const reason = merged.reason ?? ''
        const command = (payload.tool_input as { command?: unknown } | undefined)?.command
        const seen = typeof command === 'string' ? [field('model sees', preToolUseBlockText(reason, command))] : []
        return [decision(`${style.red('blocked')}: ${reason}`), ...seen, ...contexts(merged.contexts)]
      }
      const allow = merged.updatedInput === undefined ? 'allowed' : `allowed, input rewritten to ${shortJson(merged.updatedInput, 200)}`
      return [decision(allow), ...contexts(merged.contexts)]
    }
    case 'postToolUse': {
      const lines = [decision(merged.replacement === undefined ? 'output kept' : `output replaced with: ${merged.replacement}`)]
      if (merged.stopped) lines.push(field('stopped', merged.stopReason ?? '(continue: false; the turn goes on)'))
      return [...lines, ...contexts(merged.contexts)]
    }
    case 'stop': {
      const stop = merged.decision
      if (stop.action === 'stop') return [decision(`stop (continue: false)${stop.stopReason === undefined ? '' : `: ${stop.stopReason}`}`)]
      if (stop.action === 'none') return [decision('none: the turn ends')]
      return [
        decision(`${style.yellow('continue')}: the turn goes on with one user message`),
        ...stop.fragments.map((fragment) => field('prompt', hookPromptText(fragment.runId, fragment.text))),
      ]
    }
    case 'permissionRequest': {
      const verdict = merged.verdict
      if (verdict === undefined) return [decision('no verdict: the normal approval request follows')]
      return [decision(verdict.behavior === 'allow' ? 'allow' : `${style.red('deny')}: ${verdict.message}`)]
    }
    case 'gate': {
      const text = merged.stopped
        ? `${style.red('stopped')}${merged.stopReason === undefined ? '' : `: ${merged.stopReason}`}`
        : merged.blocked
          ? `${style.red('blocked')}: ${merged.blockReason ?? ''}`
          : 'proceed'
      return [decision(text), ...contexts(merged.contexts)]
    }
    case 'none':
      return [decision('none (SessionEnd and Interrupt are advisory)')]
  }
}
