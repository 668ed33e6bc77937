import { capHookText } from '@harness-kernel/hook-protocol'
import { z } from 'zod'
import { mcpToolOutput } from './mcp-tool-output.js'

const permissionRequestDecision = z.looseObject({
  behavior: z.enum(['allow', 'deny']),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  updatedPermissions: z.array(z.unknown()).optional(),
  message: z.string().optional(),
  interrupt: z.boolean().optional(),
})

const hookSpecificOutput = z.looseObject({
  hookEventName: z.string().optional(),
  permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
  permissionDecisionReason: z.string().optional(),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  additionalContext: z.string().optional(),
  decision: permissionRequestDecision.optional(),
  updatedToolOutput: z.unknown().optional(),
})

/** A hook's JSON reply (claude-code-hooks.md §6). Unknown keys are ignored; known keys of the wrong type fail the reply. */
export const hookJsonSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  systemMessage: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  decision: z.enum(['block', 'approve']).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: hookSpecificOutput.optional(),
})
export type HookJson = z.infer<typeof hookJsonSchema>

/** One handler's reply, read as Claude Code reads it. */
export interface HookOutput {
  /** `blocking`: exit 2. `error`: any other failure (nothing reaches the model). */
  status: 'success' | 'blocking' | 'error' | 'timeout' | 'cancelled'
  /** Exit 2: the raw stderr, final newline kept. */
  exit2Stderr?: string
  /** A JSON reply that passed validation. */
  json?: HookJson
  /** Exit 0 stdout that is not JSON. */
  plainStdout?: string
  /** What went wrong, in plain words (for notices and `hook/run`). */
  error?: string
}

/** What a handler produced, whatever its type (command, http, prompt, mcp_tool). */
export interface RawHandlerResult {
  kind: 'command' | 'http' | 'prompt' | 'mcp_tool'
  exitCode: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  aborted: boolean
  error?: string | undefined
  verdict?: { ok: boolean; reason?: string | undefined } | undefined
  /** mcp_tool: how the call failed (see `HandlerRunResult.mcpFailure`). */
  mcpFailure?: 'unavailable' | 'call' | 'tool' | undefined
}

export interface ReadOutputOptions {
  event: string
  timeoutSec: number
  /** Prompt handlers on PreToolUse: `ok:false` denies without ending the turn. */
  continueOnBlock?: boolean
  /** mcp_tool handlers: `block` turns a failure into a block (Claude Code's `onFailure`). */
  onFailure?: 'continue' | 'block' | undefined
  /** The handler's `<cmd>` in texts (an mcp_tool handler's `<server>/<tool>`). */
  label?: string | undefined
}

/**
 * Exit 0: stdout that starts with `{` after trimming is JSON, anything else plain text. Exit 2: blocking, stdout
 * ignored. Other exits: a non-blocking error, except that a schema-valid JSON object on stdout still decides.
 */
export function readHookOutput(result: RawHandlerResult, options: ReadOutputOptions): HookOutput {
  if (result.kind === 'mcp_tool') return mcpToolOutput(result, options, readStdout)
  if (result.aborted) return { status: 'cancelled', error: 'cancelled: the turn was interrupted' }
  if (result.timedOut) return { status: 'timeout', error: `timed out after ${options.timeoutSec} s; no decision` }
  if (result.kind === 'prompt') return promptOutput(result, options)
  if (result.kind === 'http' && result.exitCode !== 0) return { status: 'error', error: result.error ?? 'http hook failed' }
  if (result.exitCode === 2 && result.kind === 'command') return { status: 'blocking', exit2Stderr: result.stderr }
  const trimmed = result.stdout.trim()
  const looksJson = trimmed.startsWith('{')
  if (result.exitCode === 0) return readStdout(result.stdout)
  const failure =
    result.error ??
    (result.exitCode === null ? 'the hook was killed before it finished' : `exit code ${result.exitCode}${stderrTail(result.stderr)}`)
  if (looksJson) {
    const parsed = parseJson(trimmed)
    if (parsed.ok) return { status: 'error', json: parsed.json, error: failure }
  }
  return { status: 'error', error: failure }
}

/** Exit-0 stdout: JSON when it starts with `{` after trimming (validated), else plain text. */
function readStdout(stdout: string): HookOutput {
  const trimmed = stdout.trim()
  if (!trimmed.startsWith('{')) return trimmed === '' ? { status: 'success' } : { status: 'success', plainStdout: stdout }
  const parsed = parseJson(trimmed)
  return parsed.ok ? { status: 'success', json: parsed.json } : { status: 'error', error: parsed.error }
}

function promptOutput(result: RawHandlerResult, options: ReadOutputOptions): HookOutput {
  if (result.error !== undefined || result.verdict === undefined) return { status: 'error', error: result.error ?? 'no answer' }
  const { ok, reason } = result.verdict
  if (ok) return { status: 'success' }
  const why = reason ?? 'the prompt hook said no'
  if (options.event === 'PreToolUse') {
    return {
      status: 'success',
      json: {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: why },
        ...(options.continueOnBlock ? {} : { continue: false, stopReason: why }),
      },
    }
  }
  return { status: 'success', json: { decision: 'block', reason: why } }
}

function parseJson(text: string): { ok: true; json: HookJson } | { ok: false; error: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `invalid JSON output: ${error instanceof Error ? error.message : String(error)}` }
  }
  const parsed = hookJsonSchema.safeParse(value)
  if (parsed.success) return { ok: true, json: capReasons(parsed.data) }
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'output'}: ${issue.message}`).join('; ')
  return { ok: false, error: `JSON output failed validation: ${issues}` }
}

function stderrTail(stderr: string): string {
  const text = stderr.trim()
  if (text === '') return ''
  return `: ${text.length > 500 ? `…${text.slice(-500)}` : text}`
}

/**
 * The reasons a reply gives reach the model (a deny, a block, a stop's feedback): each is capped with `capHookText`.
 * `additionalContext` is left whole: it gets Claude Code's own `<persisted-output>` treatment where it is shown.
 */
function capReasons(json: HookJson): HookJson {
  const capped: HookJson = { ...json }
  if (json.reason !== undefined) capped.reason = capHookText(json.reason)
  if (json.stopReason !== undefined) capped.stopReason = capHookText(json.stopReason)
  const specific = json.hookSpecificOutput
  if (specific !== undefined) {
    const cappedSpecific = { ...specific }
    if (specific.permissionDecisionReason !== undefined)
      cappedSpecific.permissionDecisionReason = capHookText(specific.permissionDecisionReason)
    if (specific.decision?.message !== undefined)
      cappedSpecific.decision = { ...specific.decision, message: capHookText(specific.decision.message) }
    capped.hookSpecificOutput = cappedSpecific
  }
  return capped
}
