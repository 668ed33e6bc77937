/** Claude Code's `mcp_server` (PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure of an `mcp__*` tool). */
export interface McpServerField {
  /** The server's config key. */
  name: string
  /** Where its definition came from: `user`, `project`, `local`, … (Claude Code calls it an open set). */
  source: string
}

/**
 * The source of a server whose configuration names none (one a host gave `mcp()` in code, not read from a Claude Code
 * file): Claude Code's `dynamic`, its scope for servers added at launch (`--mcp-config`) rather than read from settings.
 */
export const DEFAULT_MCP_SOURCE = 'dynamic'

/**
 * `mcp_server` for a kernel tool: from the `mcp` field that `@harness-kernel/mcp` puts on the tools it registers
 * (`{ server, tool, source? }`; its `source` is the server config's, which `loadClaudeCodeMcpServers` sets to the
 * scope). Undefined for any other tool. Read structurally: the dialect does not depend on that package.
 */
export function mcpServerField(tool: unknown): McpServerField | undefined {
  const origin = typeof tool === 'object' && tool !== null ? (tool as { mcp?: unknown }).mcp : undefined
  if (typeof origin !== 'object' || origin === null) return undefined
  const { server, source } = origin as { server?: unknown; source?: unknown }
  if (typeof server !== 'string') return undefined
  return { name: server, source: typeof source === 'string' && source !== '' ? source : DEFAULT_MCP_SOURCE }
}
