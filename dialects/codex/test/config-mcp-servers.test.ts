import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCodexMcpServers } from '../src/index.js'

function layout(user: string, project?: string, trusted = true) {
  const dir = mkdtempSync(join(tmpdir(), 'hk-codex-mcp-'))
  const codexHome = join(dir, 'home')
  const cwd = join(dir, 'repo')
  mkdirSync(join(cwd, '.git'), { recursive: true })
  mkdirSync(codexHome, { recursive: true })
  const trust = trusted ? `\n[projects."${cwd}"]\ntrust_level = "trusted"\n` : ''
  writeFileSync(join(codexHome, 'config.toml'), `${user}${trust}`)
  if (project !== undefined) {
    mkdirSync(join(cwd, '.codex'), { recursive: true })
    writeFileSync(join(cwd, '.codex', 'config.toml'), project)
  }
  return { codexHome, cwd }
}

describe("Codex's [mcp_servers]", () => {
  it('reads stdio and streamable HTTP servers with their timeouts, env, headers and tool lists', () => {
    const { codexHome, cwd } = layout(`
[mcp_servers.memory]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-memory"]
env = { MEMORY_FILE_PATH = "/tmp/memory.jsonl" }
env_vars = ["HK_PASSED", "HK_UNSET"]
startup_timeout_sec = 20
tool_timeout_sec = 5
enabled_tools = ["read_graph"]

[mcp_servers.docs]
url = "http://127.0.0.1:9000/mcp"
bearer_token_env_var = "HK_DOCS_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Key" = "HK_DOCS_KEY" }
disabled_tools = ["delete"]

[mcp_servers.off]
command = "never"
enabled = false
`)
    const env = { HK_PASSED: 'yes', HK_DOCS_TOKEN: 'token-1', HK_DOCS_KEY: 'key-1' }
    expect(loadCodexMcpServers({ cwd, codexHome, env })).toEqual({
      servers: {
        memory: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { HK_PASSED: 'yes', MEMORY_FILE_PATH: '/tmp/memory.jsonl' },
          startupTimeoutMs: 20_000,
          toolTimeoutMs: 5_000,
          enabledTools: ['read_graph'],
        },
        docs: {
          type: 'http',
          url: 'http://127.0.0.1:9000/mcp',
          headers: { 'X-Team': 'core', 'X-Key': 'key-1', Authorization: 'Bearer token-1' },
          disabledTools: ['delete'],
        },
      },
      warnings: [],
    })
  })

  it("a trusted project's .codex/config.toml adds and overrides servers; an untrusted one is not read; session flags win", () => {
    const user = '[mcp_servers.a]\ncommand = "user-a"\n'
    const project = '[mcp_servers.a]\ncommand = "project-a"\n[mcp_servers.b]\ncommand = "project-b"\n'
    const trusted = layout(user, project)
    expect(
      Object.values(loadCodexMcpServers({ ...trusted, env: {} }).servers).map((server) => 'command' in server && server.command),
    ).toEqual(['project-a', 'project-b'])
    const untrusted = layout(user, project, false)
    expect(loadCodexMcpServers({ ...untrusted, env: {} }).servers).toEqual({ a: { type: 'stdio', command: 'user-a' } })
    const flagged = loadCodexMcpServers({ ...untrusted, env: {}, sessionFlags: ['mcp_servers.a.command="flag-a"'] })
    expect(flagged.servers).toEqual({ a: { type: 'stdio', command: 'flag-a' } })
  })

  it('leaves out a server Codex could not use, naming it and why', () => {
    const { codexHome, cwd } = layout(`
[mcp_servers.none]
args = ["x"]
[mcp_servers.both]
command = "x"
url = "http://127.0.0.1:1/mcp"
[mcp_servers.typed]
command = 5
[mcp_servers.token]
url = "http://127.0.0.1:1/mcp"
bearer_token_env_var = "HK_MISSING"
`)
    const { servers, warnings } = loadCodexMcpServers({ cwd, codexHome, env: {} })
    expect(servers).toEqual({})
    expect(warnings).toEqual([
      'mcp_servers.none: needs command (stdio) or url (streamable HTTP); left out',
      'mcp_servers.both: has both command and url; left out',
      'mcp_servers.typed: command must be a string; needs command (stdio) or url (streamable HTTP); left out',
      'mcp_servers.token: bearer_token_env_var names HK_MISSING, which is not set; left out',
    ])
  })
})
