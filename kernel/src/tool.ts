import type { z } from 'zod'
import type { GuardedAction, SandboxPolicy } from './guardrails/types.js'
import type { ProcessRunner } from './process-runner.js'
import type { Session } from './session-types.js'

export interface ToolContext {
  session: Session
  cwd: string
  callId: string
  signal: AbortSignal
  /**
   * Runs this call's processes: inside the session's sandbox, or outside it when the guardrails let the call out (an
   * approved escalation, an allow rule, `danger-full-access`).
   */
  processRunner: ProcessRunner
  /** Where this call runs, and how it writes files under the same confinement as its processes. */
  sandbox: ToolSandbox
  /**
   * Streams output as the tool produces it (a shell's stdout and stderr as they arrive) to the `tools/output` point.
   * Progress only: the returned `ToolOutput` is what counts. Absent while nothing taps that point.
   */
  output?: (stream: ToolOutputStream, text: string) => void
}

/** The confinement of one tool call. */
export interface ToolSandbox {
  /** The policy the call runs under (`dangerFullAccess` once the guardrails let it out). */
  readonly policy: SandboxPolicy
  /**
   * Writes a UTF-8 file (parents created) from inside the sandbox, so the operating system refuses what the policy
   * refuses: a rejected promise with `code: 'EROFS'`.
   */
  writeFile(path: string, content: string): Promise<void>
}

/** Which stream a piece of streamed tool output came from. */
export type ToolOutputStream = 'stdout' | 'stderr'

export interface ToolOutput {
  /** What the model sees. */
  output: string
  isError: boolean
  /** Structured facts for dialects and observers (a shell's stdout, stderr, exit code); never sent to a model. */
  details?: Record<string, unknown>
}

/** Names the foreign programs use for a tool's equivalent, so dialects can match and present it. */
export interface ToolAliases {
  codex?: string
  claudeCode?: string
}

export interface ToolDefinition<Input = unknown> {
  name: string
  description: string
  inputSchema: z.ZodType<Input>
  /**
   * The input schema models are shown, as JSON Schema, when it is not `inputSchema` converted: a tool that comes with
   * its own (an MCP server's) passes it on unchanged. `inputSchema` still checks each call.
   */
  jsonSchema?: Record<string, unknown>
  aliases?: ToolAliases
  /**
   * What a call is about to do, for the guardrails to judge before it runs (a command, a file change). A tool without
   * it is not judged; its processes still run in the sandbox through `context.processRunner`.
   */
  guard?(input: Input, context: { cwd: string }): GuardedAction | undefined
  /** Calls of tools marked parallel may run together within a step; others run alone, in order. */
  parallel?: boolean
  execute(input: Input, context: ToolContext): Promise<ToolOutput>
}

export function defineTool<Input>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool
}
