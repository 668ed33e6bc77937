/** The parts of Codex app-server 0.169.0 messages the driver reads (`codex app-server generate-ts --experimental`). */

export interface WireItem {
  type: string
  id: string
  [key: string]: unknown
}

export interface WireTurn {
  id: string
  status: 'completed' | 'interrupted' | 'failed' | 'inProgress'
  error?: { message?: string } | null
}

/** Codex's `TokenUsageBreakdown`: `inputTokens` counts cached input too, `outputTokens` reasoning too. */
export interface TokenUsage {
  totalTokens: number
  inputTokens: number
  cachedInputTokens: number
  /** Since 0.171.0. */
  cacheWriteInputTokens?: number
  outputTokens: number
  reasoningOutputTokens: number
}

export interface ToolCallParams {
  threadId: string
  turnId: string
  callId: string
  namespace: string | null
  tool: string
  arguments: unknown
}

export interface ApprovalParams {
  threadId: string
  turnId: string
  itemId: string
  reason?: string | null
  command?: string | null
  cwd?: string | null
  [key: string]: unknown
}

/** The tool calls Codex runs itself, as the kernel log names them. */
export const BUILTIN_CALL_NAMES: Readonly<Record<string, string>> = {
  commandExecution: 'exec_command',
  fileChange: 'apply_patch',
}
