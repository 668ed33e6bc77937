import type { CodexEvent } from '../events.js'
import { emptyOutcome, type HandlerOutcome, type HandlerRun } from './outcome.js'
import { type ParsedEvent, parseWireOutput, type WireObject } from './output-schema.js'
import {
  blockWithoutReasonText,
  COMPACT_NO_EXIT_CODE_TEXT,
  EXIT2_WITHOUT_REASON_TEXT,
  exitedWithCodeText,
  INTERRUPT_NON_JSON_TEXT,
  INVALID_JSON_TEXT,
  NO_EXIT_CODE_TEXT,
  PERMISSION_REQUEST_TEXTS,
  POST_TOOL_USE_TEXTS,
  PRE_TOOL_USE_TEXTS,
  stoppedExecutionText,
  timedOutText,
} from './output-texts.js'
import { rustTrim, trimmedNonEmpty } from './rust-text.js'

const isCompaction = (event: CodexEvent): boolean => event === 'PreCompact' || event === 'PostCompact'

/** Interprets one finished handler run exactly as Codex does for `event` (codex-hooks.md §6). Pure. */
export function parseHandlerOutput(event: CodexEvent, run: HandlerRun): HandlerOutcome {
  const outcome = emptyOutcome()
  if (run.spawnError !== undefined) return fail(outcome, run.spawnError)
  if (run.timedOut) return fail(outcome, timedOutText(run.timeoutSec))
  if (event === 'PreModelRequest' || event === 'PostModelRequest') return observed(outcome, run)
  if (run.exitCode === null) return fail(outcome, isCompaction(event) ? COMPACT_NO_EXIT_CODE_TEXT : NO_EXIT_CODE_TEXT)
  if (run.exitCode === 0) return parseExitZero(event, run.stdout, outcome)
  if (isCompaction(event)) return fail(outcome, trimmedNonEmpty(run.stderr) ?? exitedWithCodeText(run.exitCode))
  const emptyStderrText = EXIT2_WITHOUT_REASON_TEXT[event]
  if (run.exitCode !== 2 || emptyStderrText === undefined) return fail(outcome, exitedWithCodeText(run.exitCode))
  const reason = trimmedNonEmpty(run.stderr)
  if (reason === undefined) return fail(outcome, emptyStderrText)
  if (event === 'PermissionRequest') {
    outcome.permission = { behavior: 'deny', message: reason }
    return blocked(outcome, reason)
  }
  outcome.block = { reason }
  if (event === 'PostToolUse') outcome.feedback = reason
  return blocked(outcome, reason)
}

function parseExitZero(event: ParsedEvent | 'SessionEnd', stdout: string, outcome: HandlerOutcome): HandlerOutcome {
  if (event === 'SessionEnd') return outcome
  const trimmed = rustTrim(stdout)
  if (trimmed === '') return outcome
  const wire = parseWireOutput(event, trimmed)
  if (wire === undefined) {
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return fail(outcome, INVALID_JSON_TEXT[event])
    switch (event) {
      case 'SessionStart':
      case 'SubagentStart':
      case 'UserPromptSubmit':
        return addContext(outcome, trimmed)
      case 'Stop':
      case 'SubagentStop':
        return fail(outcome, INVALID_JSON_TEXT[event])
      case 'Interrupt':
        return fail(outcome, INTERRUPT_NON_JSON_TEXT)
      default:
        return outcome
    }
  }
  const systemMessage = wire.systemMessage as string | undefined
  if (systemMessage !== undefined) outcome.entries.push({ kind: 'warning', text: systemMessage })
  switch (event) {
    case 'PreToolUse':
      return preToolUse(wire, outcome)
    case 'PermissionRequest':
      return permissionRequest(wire, outcome)
    case 'PostToolUse':
      return postToolUse(wire, outcome)
    case 'UserPromptSubmit':
      return userPromptSubmit(wire, outcome)
    case 'SessionStart':
    case 'SubagentStart':
      return sessionStart(event, wire, outcome)
    case 'Stop':
    case 'SubagentStop':
      return stop(event, wire, outcome)
    case 'PreCompact':
    case 'PostCompact':
      return wire.continue === false ? stopped(outcome, wire, stoppedExecutionText(event)) : outcome
    case 'Interrupt':
      return outcome
  }
}

interface Universal {
  continue?: boolean
  stopReason?: string
  suppressOutput?: boolean
}

interface HookSpecific {
  permissionDecision?: 'allow' | 'deny' | 'ask'
  permissionDecisionReason?: string
  updatedInput?: unknown
  additionalContext?: string
  updatedMCPToolOutput?: unknown
  decision?: { behavior: 'allow' | 'deny'; updatedInput?: unknown; updatedPermissions?: unknown; message?: string; interrupt?: boolean }
}

interface Wire extends Universal {
  decision?: 'approve' | 'block'
  reason?: string
  hookSpecificOutput?: HookSpecific
}

function preToolUse(raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  const specific = wire.hookSpecificOutput
  // Any decision field in hookSpecificOutput switches to that form; the legacy decision/reason are then ignored.
  const useSpecific =
    specific !== undefined &&
    (specific.permissionDecision !== undefined || specific.permissionDecisionReason !== undefined || specific.updatedInput !== undefined)
  const invalid = unsupportedUniversal(wire, PRE_TOOL_USE_TEXTS) ?? (useSpecific ? invalidSpecific(specific!) : invalidLegacy(wire))
  if (invalid !== undefined) return fail(outcome, invalid)
  if (specific?.additionalContext !== undefined) addContext(outcome, specific.additionalContext)
  const blockReason = useSpecific
    ? specific!.permissionDecision === 'deny'
      ? trimmedNonEmpty(specific!.permissionDecisionReason)
      : undefined
    : wire.decision === 'block'
      ? trimmedNonEmpty(wire.reason)
      : undefined
  if (blockReason !== undefined) {
    outcome.block = { reason: blockReason }
    return blocked(outcome, blockReason)
  }
  if (specific?.permissionDecision === 'allow' && specific.updatedInput !== undefined) outcome.updatedInput = specific.updatedInput
  return outcome
}

function invalidSpecific(specific: HookSpecific): string | undefined {
  const { permissionDecision: decision, updatedInput } = specific
  if (updatedInput !== undefined && decision !== 'allow') return PRE_TOOL_USE_TEXTS.updatedInputWithoutAllow
  switch (decision) {
    case 'allow':
      return updatedInput === undefined ? PRE_TOOL_USE_TEXTS.bareAllow : undefined
    case 'ask':
      return PRE_TOOL_USE_TEXTS.ask
    case 'deny':
      return trimmedNonEmpty(specific.permissionDecisionReason) === undefined ? PRE_TOOL_USE_TEXTS.denyWithoutReason : undefined
    case undefined:
      return specific.permissionDecisionReason !== undefined ? PRE_TOOL_USE_TEXTS.reasonWithoutDecision : undefined
  }
}

function invalidLegacy(wire: Wire): string | undefined {
  switch (wire.decision) {
    case 'approve':
      return PRE_TOOL_USE_TEXTS.approve
    case 'block':
      return trimmedNonEmpty(wire.reason) === undefined ? blockWithoutReasonText('PreToolUse') : undefined
    case undefined:
      return wire.reason !== undefined ? PRE_TOOL_USE_TEXTS.legacyReasonWithoutDecision : undefined
  }
}

function unsupportedUniversal(
  wire: Universal,
  texts: { continueFalse: string; stopReason: string; suppressOutput: string },
): string | undefined {
  if (wire.continue === false) return texts.continueFalse
  if (wire.stopReason !== undefined) return texts.stopReason
  if (wire.suppressOutput === true) return texts.suppressOutput
  return undefined
}

function permissionRequest(raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  const decision = wire.hookSpecificOutput?.decision
  const invalid =
    unsupportedUniversal(wire, PERMISSION_REQUEST_TEXTS) ??
    (decision?.updatedInput !== undefined
      ? PERMISSION_REQUEST_TEXTS.updatedInput
      : decision?.updatedPermissions !== undefined
        ? PERMISSION_REQUEST_TEXTS.updatedPermissions
        : decision?.interrupt === true
          ? PERMISSION_REQUEST_TEXTS.interrupt
          : undefined)
  if (invalid !== undefined) {
    if (invalid === PERMISSION_REQUEST_TEXTS.interrupt) outcome.fallbackToApproval = true
    return fail(outcome, invalid)
  }
  if (decision === undefined) return outcome
  if (decision.behavior === 'allow') {
    outcome.permission = { behavior: 'allow' }
    return outcome
  }
  const message = trimmedNonEmpty(decision.message) ?? PERMISSION_REQUEST_TEXTS.defaultDenyMessage
  outcome.permission = { behavior: 'deny', message }
  return blocked(outcome, message)
}

function postToolUse(raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  const specific = wire.hookSpecificOutput
  const invalid =
    wire.suppressOutput === true
      ? POST_TOOL_USE_TEXTS.suppressOutput
      : specific?.updatedMCPToolOutput !== undefined
        ? POST_TOOL_USE_TEXTS.updatedMCPToolOutput
        : undefined
  const shouldBlock = wire.decision === 'block'
  const continues = wire.continue !== false
  const invalidBlock =
    shouldBlock && trimmedNonEmpty(wire.reason) === undefined
      ? blockWithoutReasonText('PostToolUse')
      : !shouldBlock && continues && wire.reason !== undefined
        ? POST_TOOL_USE_TEXTS.reasonWithoutDecision
        : undefined
  if (invalid === undefined && invalidBlock === undefined && specific?.additionalContext !== undefined) {
    addContext(outcome, specific.additionalContext)
  }
  if (!continues) {
    const stopText = wire.stopReason ?? stoppedExecutionText('PostToolUse')
    outcome.feedback = trimmedNonEmpty(wire.reason) ?? stopText
    outcome.status = 'stopped'
    outcome.stop = { reason: wire.stopReason }
    outcome.entries.push({ kind: 'stop', text: stopText })
    return outcome
  }
  if (invalid !== undefined) return fail(outcome, invalid)
  if (invalidBlock !== undefined) return fail(outcome, invalidBlock)
  if (!shouldBlock) return outcome
  const reason = wire.reason!
  outcome.block = { reason }
  outcome.feedback = reason
  return blocked(outcome, reason)
}

function userPromptSubmit(raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  const shouldBlock = wire.decision === 'block'
  const invalidBlock = shouldBlock && trimmedNonEmpty(wire.reason) === undefined ? blockWithoutReasonText('UserPromptSubmit') : undefined
  const context = wire.hookSpecificOutput?.additionalContext
  if (invalidBlock === undefined && context !== undefined) addContext(outcome, context)
  if (wire.continue === false) return stopped(outcome, wire)
  if (invalidBlock !== undefined) return fail(outcome, invalidBlock)
  if (!shouldBlock) return outcome
  const reason = wire.reason!
  outcome.block = { reason }
  return blocked(outcome, reason)
}

function sessionStart(event: 'SessionStart' | 'SubagentStart', raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  const context = wire.hookSpecificOutput?.additionalContext
  if (context !== undefined) addContext(outcome, context)
  // SubagentStart only injects context; its continue:false does nothing.
  return event === 'SessionStart' && wire.continue === false ? stopped(outcome, wire) : outcome
}

function stop(event: 'Stop' | 'SubagentStop', raw: WireObject, outcome: HandlerOutcome): HandlerOutcome {
  const wire = raw as Wire
  if (wire.continue === false) return stopped(outcome, wire)
  if (wire.decision !== 'block') return outcome
  const reason = trimmedNonEmpty(wire.reason)
  if (reason === undefined) return fail(outcome, blockWithoutReasonText(event))
  outcome.block = { reason }
  return blocked(outcome, reason)
}

function addContext(outcome: HandlerOutcome, text: string): HandlerOutcome {
  outcome.contexts.push(text)
  outcome.entries.push({ kind: 'context', text })
  return outcome
}

/**
 * PreModelRequest, PostModelRequest (Codex 0.169.0–0.171.0, observed): stdout is never read; a run that exits with any
 * other status than 0 has failed, with its trimmed stderr as the one entry when there is one.
 */
function observed(outcome: HandlerOutcome, run: HandlerRun): HandlerOutcome {
  if (run.exitCode === 0) return outcome
  const stderr = trimmedNonEmpty(run.stderr)
  if (stderr !== undefined) return fail(outcome, stderr)
  outcome.status = 'failed'
  return outcome
}

function fail(outcome: HandlerOutcome, text: string): HandlerOutcome {
  outcome.status = 'failed'
  outcome.entries.push({ kind: 'error', text })
  return outcome
}

function blocked(outcome: HandlerOutcome, feedback: string): HandlerOutcome {
  outcome.status = 'blocked'
  outcome.entries.push({ kind: 'feedback', text: feedback })
  return outcome
}

/** `continue:false`. Without `stopReason`, the entry is `defaultText` where Codex writes one, else left out. */
function stopped(outcome: HandlerOutcome, wire: Universal, defaultText?: string): HandlerOutcome {
  outcome.status = 'stopped'
  outcome.stop = { reason: wire.stopReason }
  const text = wire.stopReason ?? defaultText
  if (text !== undefined) outcome.entries.push({ kind: 'stop', text })
  return outcome
}
