/**
 * The kernel service key the dialect looks up for `mcp_tool` handlers. `@harness-kernel/mcp`'s `mcp()` provides its
 * servers under it (its `McpClients`); any plugin may provide the same shape. The dialect does not depend on that package.
 */
export const MCP_CLIENTS_SERVICE = 'mcpClients'

/** One content block of an MCP tool result; only `text` blocks are read. */
export interface McpToolContentBlock {
  type: string
  text?: string
}

/** The part of an MCP `CallToolResult` a hook reads. */
export interface McpToolCallResult {
  content?: readonly McpToolContentBlock[]
  isError?: boolean
}

/** What the dialect needs from the `mcpClients` service (a structural subset of `@harness-kernel/mcp`'s `McpClients`). */
export interface McpToolCaller {
  has(server: string): boolean
  callTool(request: {
    server: string
    tool: string
    arguments: Record<string, unknown>
    signal?: AbortSignal | undefined
    timeoutMs?: number | undefined
  }): Promise<McpToolCallResult>
}

/** The service if it has the shape the dialect calls, else undefined. */
export function asMcpToolCaller(value: unknown): McpToolCaller | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { has, callTool } = value as Partial<McpToolCaller>
  return typeof has === 'function' && typeof callTool === 'function' ? (value as McpToolCaller) : undefined
}
