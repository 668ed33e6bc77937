import { type ClaudeCodeHooksOptions, loadClaudeCodeMcpServers } from '@harness-kernel/claude-code'
import { type CodexHooksOptions, loadCodexMcpServers } from '@harness-kernel/codex'
import type { Plugin } from '@harness-kernel/kernel'
import { type McpServerConfig, mcp } from '@harness-kernel/mcp'

/**
 * The default harness's MCP servers: the ones Codex would start here (its `[mcp_servers]`) and the ones Claude Code
 * would (its approved `.mcp.json`, user and local servers), each read only while that program's hooks are in the
 * harness; Claude Code's win a name both have. Undefined when neither configures a server (nothing is started).
 */
export function defaultMcpPlugin(
  cwd: string,
  env: Record<string, string | undefined>,
  sources: { codex: CodexHooksOptions | undefined; claudeCode: ClaudeCodeHooksOptions | undefined },
): Plugin | undefined {
  const servers: Record<string, McpServerConfig> = {}
  const notices: string[] = []
  if (sources.codex) {
    const { codexHome, sessionFlags } = sources.codex
    const codex = loadCodexMcpServers({
      cwd,
      env,
      ...(codexHome === undefined ? {} : { codexHome }),
      ...(sessionFlags === undefined ? {} : { sessionFlags }),
    })
    Object.assign(servers, codex.servers)
    notices.push(...codex.warnings.map((warning) => `Codex MCP configuration: ${warning}`))
  }
  if (sources.claudeCode) {
    const { projectDir, configDir } = sources.claudeCode
    const claude = loadClaudeCodeMcpServers({ projectDir: projectDir ?? cwd, env, ...(configDir === undefined ? {} : { configDir }) })
    Object.assign(servers, claude.servers)
    notices.push(...claude.warnings.map((warning) => `Claude Code MCP configuration: ${warning}`))
  }
  for (const name of Object.keys(servers)) {
    if (/^[\w-]+$/.test(name)) continue
    delete servers[name]
    notices.push(`MCP server "${name}" left out: a server name may hold letters, digits, '_' and '-' only`)
  }
  if (Object.keys(servers).length === 0 && notices.length === 0) return undefined
  return mcp({ servers, notices })
}
