/** An MCP server the kernel starts as a child process and talks to over its stdin and stdout. */
export interface McpStdioServer {
  type?: 'stdio'
  command: string
  args?: readonly string[]
  /** Added to the kernel's environment for the server. */
  env?: Readonly<Record<string, string>>
  /** Default: the kernel's working directory. */
  cwd?: string
}

/** An MCP server reached over streamable HTTP. */
export interface McpHttpServer {
  type: 'http'
  url: string
  headers?: Readonly<Record<string, string>>
}

/** What every server takes beside its transport. Defaults are Codex's. */
export interface McpServerCommon {
  /** `false` leaves the server out. Default `true`. */
  enabled?: boolean
  /** How long connecting and listing its tools may take. Default 10 s. */
  startupTimeoutMs?: number
  /** How long one tool call may take. Default 60 s. */
  toolTimeoutMs?: number
  /** Only these of the server's tools are registered (Codex's `enabled_tools`). Default: all. */
  enabledTools?: readonly string[]
  /** These of the server's tools are not registered (Codex's `disabled_tools`), applied after `enabledTools`. */
  disabledTools?: readonly string[]
  /**
   * Where the server's definition came from, in the words of whatever read it (Claude Code's scopes: `user`, `project`,
   * `local`, …). This plugin does not interpret it; each of the server's tools carries it (`McpToolDefinition.mcp`), so
   * a dialect can name it (Claude Code's `mcp_server.source`).
   */
  source?: string
}

export type McpServerConfig = (McpStdioServer | McpHttpServer) & McpServerCommon

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000

/** Throws a `TypeError` naming the server and the field when a configuration cannot be used. */
export function checkServerConfig(name: string, config: McpServerConfig): void {
  const where = `mcp: server "${name}"`
  if (!/^[\w-]+$/.test(name)) throw new TypeError(`${where}: a server name may hold letters, digits, '_' and '-' only`)
  if (typeof config !== 'object' || config === null) throw new TypeError(`${where} must be an object`)
  if (config.type === 'http') {
    let url: URL
    try {
      url = new URL(config.url)
    } catch {
      throw new TypeError(`${where}: url must be an http(s) URL, got ${JSON.stringify(config.url)}`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`${where}: url must be http or https, got ${url.protocol}`)
  } else if (config.type === undefined || config.type === 'stdio') {
    if (typeof config.command !== 'string' || config.command === '') throw new TypeError(`${where}: command must be a non-empty string`)
    if (config.args !== undefined && (!Array.isArray(config.args) || config.args.some((arg) => typeof arg !== 'string')))
      throw new TypeError(`${where}: args must be an array of strings`)
  } else {
    throw new TypeError(`${where}: type must be "stdio" or "http", got ${JSON.stringify((config as { type: unknown }).type)}`)
  }
  for (const field of ['enabledTools', 'disabledTools'] as const) {
    const value = config[field]
    if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === 'string')))
      throw new TypeError(`${where}: ${field} must be an array of tool names`)
  }
  if (config.source !== undefined && (typeof config.source !== 'string' || config.source === ''))
    throw new TypeError(`${where}: source must be a non-empty string`)
  for (const field of ['startupTimeoutMs', 'toolTimeoutMs'] as const) {
    const value = config[field]
    if (value !== undefined && !(typeof value === 'number' && value > 0)) throw new TypeError(`${where}: ${field} must be a number > 0`)
  }
}
