import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpServerConfig } from './server-config.js'

export interface McpConnectionOptions {
  name: string
  config: McpServerConfig
  /** Where a stdio server runs unless its config says otherwise. */
  cwd: string
  clientVersion: string
}

interface Live {
  client: Client
  transport: Transport
  /** Set once the connection is gone (the process exited, the HTTP session ended). */
  lost: string | undefined
}

/**
 * One MCP server: connected on first use, its tools listed (every page), calls with the server's timeout and the
 * caller's signal. A server that went away (its process exited) is connected again on the next call, and that call
 * says so through `onRestart`.
 */
export class McpConnection {
  readonly name: string
  readonly config: McpServerConfig
  readonly #options: McpConnectionOptions
  #live: Promise<Live> | undefined

  constructor(options: McpConnectionOptions) {
    this.name = options.name
    this.config = options.config
    this.#options = options
  }

  async listTools(): Promise<Tool[]> {
    const { client } = await this.#connected()
    const tools: Tool[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.#startupTimeout() })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return tools
  }

  /** Calls `tool`; `onRestart` hears why the server had to be started again first. `timeoutMs` overrides the server's. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onRestart: (why: string) => void; timeoutMs?: number },
  ): Promise<CallToolResult> {
    const live = await this.#live?.catch(() => undefined)
    if (live?.lost !== undefined) {
      this.#live = undefined
      options.onRestart(live.lost)
    }
    const { client } = await this.#connected()
    return (await client.callTool({ name: tool, arguments: args }, undefined, {
      signal: options.signal,
      timeout: options.timeoutMs ?? this.#options.config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    })) as CallToolResult
  }

  async close(): Promise<void> {
    const live = await this.#live?.catch(() => undefined)
    this.#live = undefined
    await live?.client.close().catch(() => {})
    await live?.transport.close().catch(() => {})
  }

  #startupTimeout(): number {
    return this.#options.config.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS
  }

  #connected(): Promise<Live> {
    this.#live ??= this.#connect().catch((error: unknown) => {
      this.#live = undefined
      throw error
    })
    return this.#live
  }

  async #connect(): Promise<Live> {
    const { config } = this.#options
    // Loaded on first use: a harness with no MCP server, or none started yet, does not pay for the SDK at start-up.
    const [{ Client }, { StreamableHTTPClientTransport }, { GroupStdioTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('./stdio-transport.js'),
    ])
    const transport =
      config.type === 'http'
        ? new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } } })
        : new GroupStdioTransport(config, this.#options.cwd)
    const client = new Client({ name: 'harness-kernel', version: this.#options.clientVersion })
    const live: Live = { client, transport, lost: undefined }
    client.onclose = () => {
      live.lost ??= transport instanceof GroupStdioTransport ? `its process ${transport.exitReason ?? 'ended'}` : 'the connection closed'
    }
    try {
      await client.connect(transport, { timeout: this.#startupTimeout() })
    } catch (error) {
      await transport.close().catch(() => {})
      const why = transport instanceof GroupStdioTransport && transport.exitReason ? ` (${transport.exitReason})` : ''
      throw new Error(`MCP server "${this.name}" did not start: ${(error as Error).message}${why}`, { cause: error })
    }
    return live
  }
}
