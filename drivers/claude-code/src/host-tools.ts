import type { McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk'
import type { ToolSpec } from '@harness-kernel/kernel'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

/** The MCP server name: Claude Code shows the kernel's tools to its model as `mcp__host__<name>`. */
export const HOST_SERVER = 'host'
const PREFIX = `mcp__${HOST_SERVER}__`

/**
 * A hook matcher for every tool but the kernel's: Claude Code reads a matcher with characters beyond names as an
 * unanchored JavaScript RegExp over the tool name.
 */
export const NOT_HOST_TOOL = `^(?!${PREFIX})`

export const hostToolName = (kernelName: string): string => `${PREFIX}${kernelName}`

/** The kernel tool behind a model-visible name, or undefined for a built-in. */
export function kernelToolName(name: string): string | undefined {
  return name.startsWith(PREFIX) ? name.slice(PREFIX.length) : undefined
}

export interface HostToolCall {
  /** The model's `tool_use` id (Claude Code passes it in `_meta`). */
  id: string
  name: string
  input: Record<string, unknown>
  signal: AbortSignal
}

/**
 * The kernel's tools as an in-process MCP server, with their JSON Schema as the kernel has it.
 * Parallel-safe tools are annotated read-only: only then does Claude Code run calls of one message together.
 */
export function hostToolServer(
  tools: readonly (ToolSpec & { parallel: boolean })[],
  call: (request: HostToolCall) => Promise<CallToolResult>,
): McpSdkServerConfigWithInstance {
  const server = new McpServer({ name: HOST_SERVER, version: '1.0.0' }, { capabilities: { tools: {} } })
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      ...(tool.parallel ? { annotations: { readOnlyHint: true } } : {}),
    })),
  }))
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const meta = request.params._meta as Record<string, unknown> | undefined
    const toolUseId = meta?.['claudecode/toolUseId']
    return call({
      id: typeof toolUseId === 'string' ? toolUseId : `call_${extra.requestId}`,
      name: request.params.name,
      input: request.params.arguments ?? {},
      signal: extra.signal,
    })
  })
  return { type: 'sdk', name: HOST_SERVER, instance: server }
}
