import { defineTool, type ToolDefinition } from '@harness-kernel/kernel'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { callResultOutput } from './call-result.js'
import type { McpConnection } from './mcp-connection.js'
import { mcpToolName } from './tool-name.js'

/** Which server an MCP tool belongs to: the server's name (its key in `servers`), the tool's own name, and `source`. */
export interface McpToolOrigin {
  server: string
  tool: string
  /** The server config's `source`, when it has one. */
  source?: string
}

/** A kernel tool made from an MCP tool; `mcp` names its server, for dialects that show it (`tools.get(name)?.mcp`). */
export type McpToolDefinition = ToolDefinition<Record<string, unknown>> & { readonly mcp: McpToolOrigin }

/** One MCP tool as a kernel tool: its schema shown to the model as the server gave it; the server checks the input. */
export function mcpTool(connection: McpConnection, tool: Tool): McpToolDefinition {
  const name = mcpToolName(connection.name, tool.name)
  const { source } = connection.config
  const mcp: McpToolOrigin = { server: connection.name, tool: tool.name, ...(source === undefined ? {} : { source }) }
  const definition = defineTool({
    name,
    description: tool.description ?? tool.title ?? `${tool.name} (MCP server ${connection.name})`,
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema: tool.inputSchema as Record<string, unknown>,
    async execute(input, context) {
      try {
        const result = await connection.callTool(tool.name, input, {
          signal: context.signal,
          onRestart: (why) =>
            context.session.notice('warning', `MCP server "${connection.name}" stopped (${why}); started it again for ${name}`, 'mcp'),
        })
        return callResultOutput(result)
      } catch (error) {
        return { output: `MCP tool ${name} failed: ${(error as Error).message}`, isError: true }
      }
    },
  })
  return { ...definition, mcp }
}
