import type { ModelProvider, ProcessRunner } from '@harness-kernel/kernel'
import type { CommandHandler, HttpHandler, McpToolHandler, PromptHandler } from '../types.js'
import type { McpToolCaller } from './mcp-tool-caller.js'

export type RunnableHandler = CommandHandler | HttpHandler | PromptHandler | McpToolHandler

/** One handler to run for one event occurrence. */
export interface HandlerRunSpec {
  handler: RunnableHandler
  /**
   * The exact stdin bytes, `JSON.stringify(payload) + '\n'`; without the final newline it is the http body and the
   * prompt's `$ARGUMENTS`, and what an mcp_tool handler's `${path}` placeholders read.
   */
  stdin: string
  cwd: string
  /** Added to the parent environment for command handlers (see `hookEnv`); `undefined` removes a variable. http headers read it too. */
  env: Record<string, string | undefined>
  timeoutMs: number
  signal?: AbortSignal | undefined
}

export interface HandlerVerdict {
  ok: boolean
  reason?: string
}

export interface HandlerRunResult {
  kind: 'command' | 'http' | 'prompt' | 'mcp_tool'
  /**
   * command: the exit code (null if killed or not started); http: 0 for a 2xx, null otherwise; prompt: 0 for a valid
   * answer, null otherwise; mcp_tool: 0 for a result, 1 for an `isError` result or a failed call, null on a timeout.
   */
  exitCode: number | null
  /** command: stdout; http: the 2xx response body; prompt: the model's raw answer text; mcp_tool: the result's text. */
  stdout: string
  /** command: stderr; http: the body of a non-2xx response; mcp_tool: the failure's text. */
  stderr: string
  timedOut: boolean
  aborted: boolean
  /** Why it failed, in plain words: a spawn error, `HTTP 503 Service Unavailable`, a refused connection, an invalid prompt answer, a model error, a timeout. */
  error?: string
  /** command: the signal that killed the process. */
  signal?: string
  httpStatus?: number
  /**
   * mcp_tool: how the call failed, for the texts of `onFailure: "block"`: `unavailable` (no such server), `call` (the
   * call itself failed), `tool` (an `isError` result with text).
   */
  mcpFailure?: 'unavailable' | 'call' | 'tool'
  /** prompt: the parsed `{ok, reason}` answer. */
  verdict?: HandlerVerdict
  durationMs: number
  /** Epoch milliseconds. */
  startedAt: number
  completedAt: number
  /** Finish order among the handlers launched together: 0 finished first. */
  completionIndex: number
}

/** What one runner reports; `runHandlers` adds the timing and the finish order. */
export type HandlerRunOutcome = Omit<HandlerRunResult, 'startedAt' | 'completedAt' | 'completionIndex'>

export interface RunnerServices {
  processRunner: ProcessRunner
  /** Needed by prompt handlers only. */
  model?: ModelProvider | undefined
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch | undefined
  /** The MCP servers mcp_tool handlers call; without it (or without the server) they fail: `MCP server '<name>' not connected`. */
  mcpClients?: McpToolCaller | undefined
}

/** A runner's outcome from what it has to say: nothing ran a process, the rest are the defaults (no exit, no output). */
export function outcomeOf(kind: HandlerRunOutcome['kind'], started: number) {
  return (fields: Partial<HandlerRunOutcome>): HandlerRunOutcome => ({
    kind,
    exitCode: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: false,
    durationMs: performance.now() - started,
    ...fields,
  })
}
