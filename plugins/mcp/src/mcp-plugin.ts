import { definePlugin, type KernelApi, type Plugin } from '@harness-kernel/kernel'
import { MCP_CLIENTS_SERVICE, mcpClients } from './mcp-clients.js'
import { McpConnection } from './mcp-connection.js'
import { mcpTool } from './mcp-tool.js'
import { checkServerConfig, type McpServerConfig } from './server-config.js'

export interface McpOptions {
  /** The servers, by name (the `<server>` of `mcp__<server>__<tool>`). */
  servers: Readonly<Record<string, McpServerConfig>>
  /** Warnings from wherever the servers were read (a config file's problems), told to each session as it starts. */
  notices?: readonly string[]
}

const PLUGIN_NAME = 'mcp'
const CLIENT_VERSION = '0.1.0'

/**
 * MCP servers' tools as kernel tools. The servers start when the first session does (all at once; the session waits
 * for them, as Codex and Claude Code wait at start-up), their tools are registered then, and they stop with the kernel.
 * A server that does not start is a warning notice in that session and leaves no tools; the others go on. The servers
 * are also the kernel service `mcpClients` (`McpClients`), through which other plugins call a tool by server and name.
 */
export function mcp(options: McpOptions): Plugin {
  const servers = Object.entries(options.servers).filter(([, config]) => config.enabled !== false)
  for (const [name, config] of servers) checkServerConfig(name, config)
  return definePlugin({
    name: PLUGIN_NAME,
    setup(kernel) {
      const connections = servers.map(
        ([name, config]) => new McpConnection({ name, config, cwd: kernel.cwd, clientVersion: CLIENT_VERSION }),
      )
      // Other plugins (the Claude Code dialect's mcp_tool hooks) call tools over the same connections.
      kernel.provide(MCP_CLIENTS_SERVICE, mcpClients(connections))
      let started: Promise<string[]> | undefined
      kernel.hooks.sessionStart.tapPromise(PLUGIN_NAME, async ({ session }) => {
        started ??= startAll(kernel, connections)
        for (const notice of options.notices ?? []) session.notice('warning', notice, PLUGIN_NAME)
        for (const failure of await started) session.notice('warning', failure, PLUGIN_NAME)
      })
      return async () => {
        await Promise.all(connections.map((connection) => connection.close()))
      }
    },
  })
}

/** Connects every server and registers its tools; returns what failed, one text per server. */
async function startAll(kernel: KernelApi, connections: readonly McpConnection[]): Promise<string[]> {
  const failures: string[] = []
  await Promise.all(
    connections.map(async (connection) => {
      try {
        const { enabledTools, disabledTools } = connection.config
        for (const tool of await connection.listTools()) {
          if (enabledTools !== undefined && !enabledTools.includes(tool.name)) continue
          if (disabledTools?.includes(tool.name)) continue
          kernel.registerTool(mcpTool(connection, tool))
        }
      } catch (error) {
        failures.push(`${(error as Error).message}; its tools are not available`)
      }
    }),
  )
  return failures
}
