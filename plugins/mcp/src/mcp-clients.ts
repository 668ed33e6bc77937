import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { McpConnection } from './mcp-connection.js'

/** The kernel service key under which `mcp()` provides its servers' clients (`kernel.resolve('mcpClients')`). */
export const MCP_CLIENTS_SERVICE = 'mcpClients'

/** One tool call made on a server by name, outside the model's tool loop (a Claude Code `mcp_tool` hook, say). */
export interface McpToolCallRequest {
  server: string
  tool: string
  arguments: Record<string, unknown>
  signal?: AbortSignal | undefined
  /** How long the call may take; default the server's `toolTimeoutMs` (60 s). */
  timeoutMs?: number | undefined
  /** Told why the server had to be started again before this call (its process had exited). */
  onRestart?: ((why: string) => void) | undefined
}

/**
 * The MCP servers of an `mcp()` plugin, for other plugins: a dialect calls a tool by server and tool name, the call
 * going over the same connection as the model's calls. Any tool the server has can be called (`enabledTools` and
 * `disabledTools` choose what the model sees). Provided as the `mcpClients` service; a plugin that wants it resolves
 * that key and must cope with its absence (no `mcp()` in the composition).
 */
export interface McpClients {
  /** The names of the enabled servers. */
  servers(): string[]
  has(server: string): boolean
  /** Connects the server first if needed. Throws when the server is unknown, does not start, or the call fails. */
  callTool(request: McpToolCallRequest): Promise<CallToolResult>
}

export function mcpClients(connections: readonly McpConnection[]): McpClients {
  const byName = new Map(connections.map((connection) => [connection.name, connection]))
  return {
    servers: () => [...byName.keys()],
    has: (server) => byName.has(server),
    callTool(request) {
      const connection = byName.get(request.server)
      if (connection === undefined) return Promise.reject(new Error(`MCP server "${request.server}" is not configured`))
      return connection.callTool(request.tool, request.arguments, {
        signal: request.signal ?? new AbortController().signal,
        onRestart: request.onRestart ?? (() => {}),
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      })
    },
  }
}
