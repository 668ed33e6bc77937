import type { z } from 'zod'
import type { ProcessRunner } from './process-runner.js'
import type { Session } from './session-types.js'

export interface ToolContext {
  session: Session
  cwd: string
  callId: string
  signal: AbortSignal
  processRunner: ProcessRunner
  /**
   * Streams output as the tool produces it (a shell's stdout and stderr as they arrive) to the `tools/output` point.
   * Progress only: the returned `ToolOutput` is what counts. Absent while nothing taps that point.
   */
  output?: (stream: ToolOutputStream, text: string) => void
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
  /** Calls of tools marked parallel may run together within a step; others run alone, in order. */
  parallel?: boolean
  execute(input: Input, context: ToolContext): Promise<ToolOutput>
}

export function defineTool<Input>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool
}
