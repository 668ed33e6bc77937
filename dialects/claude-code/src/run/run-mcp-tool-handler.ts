import type { McpToolHandler } from '../types.js'
import { type HandlerRunOutcome, type HandlerRunSpec, outcomeOf } from './handler-run.js'
import type { McpToolCaller, McpToolCallResult } from './mcp-tool-caller.js'
import { mcpToolArguments } from './mcp-tool-input.js'
import { payloadJsonOf } from './payload-json.js'
import { timeoutSignal, timeoutText } from './timeout-signal.js'

/** The MCP SDK's error code for a request that timed out. */
const REQUEST_TIMEOUT = -32001

/** Claude Code 2.1.332's text when the server is unknown (not configured, not running). */
export function mcpServerNotConnected(server: string): string {
  return `MCP server '${server}' not connected`
}

/** Claude Code 2.1.332's text on SessionStart (startup, resume) and Setup, which run before its MCP clients exist. */
export function mcpToolUnavailableOn(event: string): string {
  return `mcp_tool hooks are not available for the '${event}' hook event (no MCP client context)`
}

/**
 * Calls the handler's tool with its interpolated input, as Claude Code 2.1.332 does. The result's text blocks, joined by
 * '\n' (other blocks as `[<type>]`), are the handler's stdout, read as a command's exit-0 stdout; `isError` is a
 * non-blocking error (exit code 1) whose text is that output, else `MCP tool returned an error`. An unknown server, a
 * failed call or a timeout is a non-blocking error too. Never throws.
 */
export async function runMcpToolHandler(
  caller: McpToolCaller | undefined,
  handler: McpToolHandler,
  spec: HandlerRunSpec,
): Promise<HandlerRunOutcome> {
  const started = performance.now()
  const finish = outcomeOf('mcp_tool', started)
  const fail = (error: string, mcpFailure: HandlerRunOutcome['mcpFailure']) =>
    finish({ exitCode: 1, stderr: error, error, ...(mcpFailure === undefined ? {} : { mcpFailure }) })
  const payload = parsePayload(spec.stdin)
  if (unavailable(handler.event, payload)) return fail(mcpToolUnavailableOn(handler.event), undefined)
  if (caller === undefined || !caller.has(handler.server)) return fail(mcpServerNotConnected(handler.server), 'unavailable')
  const deadline = timeoutSignal(spec.timeoutMs, spec.signal)
  if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
  let result: McpToolCallResult
  try {
    result = await caller.callTool({
      server: handler.server,
      tool: handler.tool,
      arguments: mcpToolArguments(handler.input, payload),
      signal: deadline.signal,
      timeoutMs: spec.timeoutMs,
    })
  } catch (error) {
    if (deadline.aborted()) return finish({ aborted: true, error: 'aborted' })
    if (deadline.timedOut() || (error as { code?: unknown } | null)?.code === REQUEST_TIMEOUT)
      return finish({ timedOut: true, error: timeoutText(spec.timeoutMs) })
    return fail(error instanceof Error ? error.message : String(error), 'call')
  }
  const body = (result.content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : `[${block.type}]`)).join('\n')
  if (result.isError === true) {
    const error = body || 'MCP tool returned an error'
    return finish({ exitCode: 1, stdout: body, stderr: error, error, ...(body === '' ? {} : { mcpFailure: 'tool' as const }) })
  }
  return finish({ exitCode: 0, stdout: body })
}

function parsePayload(stdin: string): unknown {
  try {
    return JSON.parse(payloadJsonOf(stdin))
  } catch {
    return undefined
  }
}

function unavailable(event: string, payload: unknown): boolean {
  if (event === 'Setup') return true
  if (event !== 'SessionStart') return false
  const source = (payload as { source?: unknown } | undefined)?.source
  return source !== 'clear' && source !== 'compact'
}
