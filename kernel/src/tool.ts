import type { z } from 'zod'
import type { ProcessRunner } from './process-runner.js'
import type { Session } from './session-types.js'

export interface ToolContext {
  session: Session
  cwd: string
  callId: string
  signal: AbortSignal
  processRunner: ProcessRunner
}

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
  aliases?: ToolAliases
  /** Calls of tools marked parallel may run together within a step; others run alone, in order. */
  parallel?: boolean
  execute(input: Input, context: ToolContext): Promise<ToolOutput>
}

export function defineTool<Input>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool
}
