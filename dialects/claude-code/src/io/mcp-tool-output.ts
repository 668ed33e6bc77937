import type { HookOutput, RawHandlerResult, ReadOutputOptions } from './hook-output.js'

/** Where `onFailure: "block"` is ignored (Claude Code 2.1.332's schema text; SessionStart and Setup for mcp_tool). */
const BLOCK_IGNORED = new Set(['Stop', 'SubagentStop', 'TaskCompleted', 'TeammateIdle', 'SessionStart', 'Setup'])

/** Events whose hook gives a verdict: with `onFailure: "block"`, an answer that is no hook output counts as a failure. */
const VERDICT_EVENTS = new Set([
  'PreToolUse',
  'PermissionRequest',
  'PreSkillShellCommand',
  'PreModelSwitch',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'ConfigChange',
  'Elicitation',
  'ElicitationResult',
  'PostToolBatch',
  'TaskCreated',
])

const BLOCKING =
  'blocking because onFailure is "block" and the hook got no usable answer from its MCP server. The user needs to fix ' +
  "the cause (in a session, /mcp shows the server's state) or ask whoever manages the hook; Claude should not change " +
  'the hook or work around it.'

const DETAILS_LEFT_OUT =
  'Details are left out of this message, since the MCP server may have written them. To see them, start Claude Code ' +
  'with --debug and try again: they go to its debug log.'

/** Claude Code 2.1.332's words for why a blocking mcp_tool hook got no usable answer. */
const FAILURE_TEXT = {
  call: 'The call to the MCP server failed.',
  tool: 'The MCP tool returned an error.',
  invalid: "The MCP tool's answer looks like JSON, but is not a valid hook output.",
  noVerdict: "The MCP tool's answer is not a hook's JSON output, {} or empty.",
  other: 'The hook got no answer that Claude Code can use.',
}

/**
 * An mcp_tool run, read as Claude Code 2.1.332 reads it: the tool's text like a command's exit-0 stdout (JSON decides,
 * as a command's would), except that plain text reaches nobody (a command's plain stdout is context on
 * UserPromptSubmit and SessionStart; an MCP tool's is not); `isError` or a failed call is a non-blocking error and its
 * text is never read as JSON; a timeout gives no decision. With `onFailure: "block"`, a failure, a timeout, an invalid
 * answer, and on verdict events an answer that is no hook output, block instead, with Claude Code's text
 * (`[<server>/<tool>]: failed; blocking because onFailure is "block" …`); never on Stop, SubagentStop, SessionStart.
 */
export function mcpToolOutput(
  result: RawHandlerResult,
  options: ReadOutputOptions,
  readStdout: (stdout: string) => HookOutput,
): HookOutput {
  if (result.aborted) return { status: 'cancelled', error: 'cancelled: the turn was interrupted' }
  const blocks = options.onFailure === 'block' && !BLOCK_IGNORED.has(options.event)
  if (result.timedOut) {
    const output: HookOutput = { status: 'timeout', error: `timed out after ${options.timeoutSec} s; no decision` }
    return blocks ? blocking(output, 'timed out', '', options) : output
  }
  if (result.exitCode !== 0) {
    const error = result.error ?? 'MCP tool returned an error'
    const output: HookOutput = { status: 'error', error }
    if (!blocks) return output
    const shown = result.mcpFailure === 'call' || result.mcpFailure === 'tool' ? FAILURE_TEXT[result.mcpFailure] : error
    return blocking(output, 'failed', detail(shown, result.mcpFailure === 'unavailable'), options)
  }
  const read = readStdout(result.stdout)
  const output: HookOutput = read.plainStdout === undefined ? read : { status: 'success' }
  if (!blocks) return output
  if (read.status === 'error') return blocking(output, 'failed', detail(FAILURE_TEXT.invalid, false), options)
  if (VERDICT_EVENTS.has(options.event) && !isVerdict(result.stdout, read)) {
    const error = 'the MCP tool answered with no hook output'
    return blocking({ ...output, error }, 'failed', detail(FAILURE_TEXT.noVerdict, false), options)
  }
  return output
}

/** A hook output with a field besides `reason`, `{}`, or nothing. */
function isVerdict(stdout: string, read: HookOutput): boolean {
  const trimmed = stdout.trim()
  if (trimmed === '' || /^\{\s*\}$/.test(trimmed)) return true
  return read.json !== undefined && Object.keys(read.json).some((key) => key !== 'reason')
}

/** The line under the block: the not-connected text as it is, else one of Claude Code's fixed texts (the server's own words are left out). */
function detail(text: string, notConnected: boolean): string {
  if (text === '') return ''
  if (notConnected) return `\n${text}`
  const known = Object.values(FAILURE_TEXT).find((candidate) => candidate === text)
  return `\n${known ?? FAILURE_TEXT.other} ${DETAILS_LEFT_OUT}`
}

function blocking(output: HookOutput, what: 'failed' | 'timed out', detailText: string, options: ReadOutputOptions): HookOutput {
  const stderr = `${what}; ${BLOCKING}${detailText}`
  const blocked: HookOutput = { status: 'blocking', exit2Stderr: stderr, error: output.error ?? what }
  if (options.event !== 'PermissionRequest') return blocked
  // A blocked PermissionRequest is a deny whose message is the whole text.
  const message = `[${options.label ?? 'mcp_tool hook'}]: ${stderr}`
  return { ...blocked, json: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message } } } }
}
