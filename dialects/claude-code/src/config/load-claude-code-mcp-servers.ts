import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { JsonObject } from './json-value.js'
import { readJsonObjectFile } from './read-json-file.js'

/**
 * Where Claude Code found a server (its `mcp_server.source` in hook payloads): `user` (`.claude.json` `mcpServers`),
 * `project` (`.mcp.json`), `local` (`.claude.json` `projects["<project>"].mcpServers`).
 */
export type ClaudeCodeMcpScope = 'user' | 'project' | 'local'

/**
 * An MCP server as `@harness-kernel/mcp` takes it (`mcp({ servers })`), read from Claude Code's configuration. `source`
 * is its scope; the MCP plugin passes it on to the server's tools, and the dialect puts it in `mcp_server`.
 */
export type ClaudeCodeMcpServer = (
  | { type: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> }
) & { source: ClaudeCodeMcpScope }

export interface LoadClaudeCodeMcpServersOptions {
  /** The project (`.mcp.json`, `.claude/settings*.json`). */
  projectDir: string
  /**
   * Claude's config dir (user `settings.json`; its `.claude.json`, which for `~/.claude` is `~/.claude.json`). Default
   * `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
   */
  configDir?: string
  /** For `${VAR}` and `${VAR:-default}` in server entries. Default `process.env`. */
  env?: NodeJS.ProcessEnv
}

/**
 * The MCP servers Claude Code would start in a project, in its scopes' order (a later scope's server of the same name
 * wins): user (`.claude.json` `mcpServers`), project (`<project>/.mcp.json`, only the servers the settings approve:
 * `enableAllProjectMcpServers`, or named in `enabledMcpjsonServers`, and not in `disabledMcpjsonServers`), local
 * (`.claude.json` `projects["<project>"].mcpServers`). `${VAR}` and `${VAR:-default}` are expanded in commands,
 * arguments, environments, URLs and headers. A server that cannot be used (no command or url, an `sse` server, an
 * unset variable without a default) is left out with a warning naming it.
 */
export function loadClaudeCodeMcpServers(options: LoadClaudeCodeMcpServersOptions): {
  servers: Record<string, ClaudeCodeMcpServer>
  warnings: string[]
} {
  const env = options.env ?? process.env
  const projectDir = resolve(options.projectDir)
  const home = env.HOME || homedir()
  const configDir = resolve(options.configDir ?? (env.CLAUDE_CONFIG_DIR || join(home, '.claude')))
  // Claude Code keeps `.claude.json` beside `~/.claude`, and inside a CLAUDE_CONFIG_DIR.
  const statePath = configDir === resolve(home, '.claude') ? join(home, '.claude.json') : join(configDir, '.claude.json')
  const warnings: string[] = []
  const read = (path: string): JsonObject | undefined => {
    const result = readJsonObjectFile(path)
    if (!result.found) return undefined
    if ('error' in result) {
      warnings.push(`${path}: ${result.error}; its MCP servers are not read`)
      return undefined
    }
    return result.content
  }
  const state = read(statePath)
  const servers: Record<string, ClaudeCodeMcpServer> = {}
  const add = (where: string, scope: ClaudeCodeMcpScope, table: unknown, approved: (name: string) => boolean = () => true) => {
    if (table === undefined) return
    if (!isObject(table)) {
      warnings.push(`${where}: mcpServers must be an object; no server is read from it`)
      return
    }
    for (const [name, entry] of Object.entries(table)) {
      if (!approved(name)) continue
      const server = claudeServer(`${where}: mcpServers.${name}`, entry, env, warnings)
      if (server) servers[name] = { ...server, source: scope }
    }
  }
  add(statePath, 'user', state?.mcpServers)
  const mcpJson = join(projectDir, '.mcp.json')
  const project = read(mcpJson)
  if (project?.mcpServers !== undefined) {
    const approval = projectApproval(
      [
        join(configDir, 'settings.json'),
        join(projectDir, '.claude', 'settings.json'),
        join(projectDir, '.claude', 'settings.local.json'),
      ].map(read),
    )
    const unapproved: string[] = []
    add(mcpJson, 'project', project.mcpServers, (name) => {
      const ok = approval.disabled.has(name) ? false : approval.all || approval.enabled.has(name)
      if (!ok && !approval.disabled.has(name)) unapproved.push(name)
      return ok
    })
    if (unapproved.length > 0)
      warnings.push(
        `${mcpJson}: ${unapproved.join(', ')} not started: project MCP servers need approval (enableAllProjectMcpServers, or enabledMcpjsonServers in the project's .claude/settings.local.json), as in Claude Code`,
      )
  }
  const projects = state?.projects
  add(
    `${statePath} (projects["${projectDir}"])`,
    'local',
    isObject(projects) && isObject(projects[projectDir]) ? projects[projectDir].mcpServers : undefined,
  )
  return { servers, warnings }
}

/** `enableAllProjectMcpServers` (the last file that sets it wins: user, project, local) and the two lists, merged. */
function projectApproval(settings: (JsonObject | undefined)[]): { all: boolean; enabled: Set<string>; disabled: Set<string> } {
  let all = false
  const enabled = new Set<string>()
  const disabled = new Set<string>()
  for (const file of settings) {
    if (typeof file?.enableAllProjectMcpServers === 'boolean') all = file.enableAllProjectMcpServers
    for (const name of strings(file?.enabledMcpjsonServers)) enabled.add(name)
    for (const name of strings(file?.disabledMcpjsonServers)) disabled.add(name)
  }
  return { all, enabled, disabled }
}

type ServerTransport = DistributiveOmit<ClaudeCodeMcpServer, 'source'>
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

function claudeServer(where: string, entry: unknown, env: NodeJS.ProcessEnv, warnings: string[]): ServerTransport | undefined {
  if (!isObject(entry)) {
    warnings.push(`${where} must be an object; left out`)
    return undefined
  }
  const missing: string[] = []
  const expand = (text: string) =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => {
      const value = env[name] ?? fallback
      if (value === undefined) missing.push(name)
      return value ?? whole
    })
  const type = entry.type ?? (entry.url !== undefined ? 'http' : 'stdio')
  let server: ServerTransport | undefined
  if (type === 'stdio' && typeof entry.command === 'string') {
    const args = strings(entry.args).map(expand)
    const vars = isObject(entry.env)
      ? Object.fromEntries(Object.entries(entry.env).flatMap(([key, value]) => (typeof value === 'string' ? [[key, expand(value)]] : [])))
      : {}
    server = {
      type: 'stdio',
      command: expand(entry.command),
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(vars).length > 0 ? { env: vars } : {}),
    }
  } else if (type === 'http' && typeof entry.url === 'string') {
    const headers = isObject(entry.headers)
      ? Object.fromEntries(
          Object.entries(entry.headers).flatMap(([key, value]) => (typeof value === 'string' ? [[key, expand(value)]] : [])),
        )
      : {}
    server = { type: 'http', url: expand(entry.url), ...(Object.keys(headers).length > 0 ? { headers } : {}) }
  } else if (type === 'sse') {
    warnings.push(`${where}: an sse server (the deprecated HTTP+SSE transport) is not supported; left out`)
    return undefined
  } else {
    warnings.push(`${where}: needs a command (stdio) or a url (http); left out`)
    return undefined
  }
  if (missing.length > 0) {
    warnings.push(`${where}: ${missing.map((name) => `\${${name}}`).join(', ')} not set and no default; left out`)
    return undefined
  }
  return server
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])
