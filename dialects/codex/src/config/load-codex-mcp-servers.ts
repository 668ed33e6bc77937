import { isTable, type TomlTable } from './toml-table.js'
import { mergedLayers, trustedConfigLayers } from './trusted-config-layers.js'

/** An MCP server as `@harness-kernel/mcp` takes it (`mcp({ servers })`), read from Codex's `[mcp_servers.<name>]`. */
export type CodexMcpServer = (
  | { type: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { type: 'http'; url: string; headers?: Record<string, string> }
) & { startupTimeoutMs?: number; toolTimeoutMs?: number; enabledTools?: string[]; disabledTools?: string[] }

export interface LoadCodexMcpServersOptions {
  cwd: string
  /** Default `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string
  /** `codex -c key=value` overrides. */
  sessionFlags?: readonly string[]
  /** Where `env_vars`, `bearer_token_env_var` and `env_http_headers` are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * The MCP servers Codex would start in `cwd`: `[mcp_servers]` of the user's config.toml, of every trusted project's
 * `.codex/config.toml` (an untrusted project's is not read, as Codex) and of the session flags, merged in that order,
 * without the ones with `enabled = false`. A server Codex could not use (no `command` or `url`, both, a wrong type) is
 * left out with a warning naming it.
 */
export function loadCodexMcpServers(options: LoadCodexMcpServersOptions): { servers: Record<string, CodexMcpServer>; warnings: string[] } {
  const env = options.env ?? process.env
  const warnings: string[] = []
  const table = mergedLayers(trustedConfigLayers(options, warnings)).mcp_servers
  const servers: Record<string, CodexMcpServer> = {}
  if (table === undefined) return { servers, warnings }
  if (!isTable(table)) return { servers, warnings: [...warnings, 'mcp_servers must be a table; no MCP server is read'] }
  for (const [name, entry] of Object.entries(table)) {
    const server = isTable(entry) ? codexServer(name, entry, env, warnings) : undefined
    if (!isTable(entry)) warnings.push(`mcp_servers.${name} must be a table; left out`)
    if (server) servers[name] = server
  }
  return { servers, warnings }
}

function codexServer(name: string, entry: TomlTable, env: NodeJS.ProcessEnv, warnings: string[]): CodexMcpServer | undefined {
  const where = `mcp_servers.${name}`
  const problems: string[] = []
  const string = (key: string) => {
    const value = entry[key]
    if (value !== undefined && typeof value !== 'string') problems.push(`${key} must be a string`)
    return typeof value === 'string' ? value : undefined
  }
  const strings = (key: string) => {
    const value = entry[key]
    if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === 'string')))
      problems.push(`${key} must be an array of strings`)
    return Array.isArray(value) ? (value.filter((item) => typeof item === 'string') as string[]) : undefined
  }
  const stringTable = (key: string) => {
    const value = entry[key]
    if (value !== undefined && !(isTable(value) && Object.values(value).every((item) => typeof item === 'string')))
      problems.push(`${key} must be a table of strings`)
    return isTable(value)
      ? (Object.fromEntries(Object.entries(value).filter(([, item]) => typeof item === 'string')) as Record<string, string>)
      : undefined
  }
  const seconds = (key: string) => {
    const value = positive(entry[key])
    if (entry[key] !== undefined && value === undefined) problems.push(`${key} must be a number > 0`)
    return value === undefined ? undefined : value * 1000
  }
  if (entry.enabled === false) return undefined
  const command = string('command')
  const url = string('url')
  const common = {
    ...optional('startupTimeoutMs', seconds('startup_timeout_sec') ?? positive(entry.startup_timeout_ms)),
    ...optional('toolTimeoutMs', seconds('tool_timeout_sec')),
    ...optional('enabledTools', strings('enabled_tools')),
    ...optional('disabledTools', strings('disabled_tools')),
  }
  let server: CodexMcpServer | undefined
  if (command !== undefined && url !== undefined) problems.push('has both command and url')
  else if (command !== undefined) {
    const passed = Object.fromEntries(
      (strings('env_vars') ?? []).flatMap((key) => (env[key] === undefined ? [] : [[key, env[key] as string]])),
    )
    const own = stringTable('env')
    const vars = { ...passed, ...own }
    server = {
      type: 'stdio',
      command,
      ...optional('args', strings('args')),
      ...(Object.keys(vars).length === 0 ? {} : { env: vars }),
      ...optional('cwd', string('cwd')),
      ...common,
    }
  } else if (url !== undefined) {
    const headers: Record<string, string> = { ...stringTable('http_headers') }
    for (const [header, variable] of Object.entries(stringTable('env_http_headers') ?? {})) {
      if (env[variable] !== undefined) headers[header] = env[variable] as string
    }
    const tokenVariable = string('bearer_token_env_var')
    if (tokenVariable !== undefined) {
      const token = env[tokenVariable]
      if (token === undefined) problems.push(`bearer_token_env_var names ${tokenVariable}, which is not set`)
      else headers.Authorization = `Bearer ${token}`
    }
    server = { type: 'http', url, ...(Object.keys(headers).length === 0 ? {} : { headers }), ...common }
  } else problems.push('needs command (stdio) or url (streamable HTTP)')
  if (problems.length > 0) {
    warnings.push(`${where}: ${problems.join('; ')}; left out`)
    return undefined
  }
  return server
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>))
/** A TOML number (integers come as bigints) above 0. */
function positive(value: unknown): number | undefined {
  const number = typeof value === 'bigint' ? Number(value) : value
  return typeof number === 'number' && number > 0 ? number : undefined
}
