// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` here is MCP configuration text, never a template.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadClaudeCodeMcpServers } from '../src/index.js'

function layout(files: { state?: unknown; mcpJson?: unknown; projectSettings?: unknown; localSettings?: unknown }) {
  const dir = mkdtempSync(join(tmpdir(), 'hk-claude-mcp-'))
  const configDir = join(dir, 'config')
  const projectDir = join(dir, 'project')
  mkdirSync(join(projectDir, '.claude'), { recursive: true })
  mkdirSync(configDir, { recursive: true })
  const write = (path: string, value: unknown) => value !== undefined && writeFileSync(path, JSON.stringify(value))
  write(join(configDir, '.claude.json'), typeof files.state === 'function' ? files.state(projectDir) : files.state)
  write(join(projectDir, '.mcp.json'), files.mcpJson)
  write(join(projectDir, '.claude', 'settings.json'), files.projectSettings)
  write(join(projectDir, '.claude', 'settings.local.json'), files.localSettings)
  return { configDir, projectDir }
}

const mcpJson = {
  mcpServers: {
    memory: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '${HK_HOME:-/tmp}/memory.jsonl' },
    },
    docs: { type: 'http', url: 'http://127.0.0.1:9000/mcp', headers: { Authorization: 'Bearer ${HK_TOKEN}' } },
  },
}

describe("Claude Code's MCP servers", () => {
  it('reads an approved .mcp.json with ${VAR} and ${VAR:-default} expanded', () => {
    const paths = layout({ mcpJson, localSettings: { enableAllProjectMcpServers: true } })
    expect(loadClaudeCodeMcpServers({ ...paths, env: { HK_TOKEN: 't-1' } })).toEqual({
      servers: {
        memory: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: '/tmp/memory.jsonl' },
          source: 'project',
        },
        docs: { type: 'http', url: 'http://127.0.0.1:9000/mcp', headers: { Authorization: 'Bearer t-1' }, source: 'project' },
      },
      warnings: [],
    })
  })

  it('starts no project server without approval, saying how to approve; enabled and disabled lists pick', () => {
    const unapproved = layout({ mcpJson })
    const none = loadClaudeCodeMcpServers({ ...unapproved, env: { HK_TOKEN: 't' } })
    expect(none.servers).toEqual({})
    expect(none.warnings).toEqual([
      `${join(unapproved.projectDir, '.mcp.json')}: memory, docs not started: project MCP servers need approval (enableAllProjectMcpServers, or enabledMcpjsonServers in the project's .claude/settings.local.json), as in Claude Code`,
    ])
    const picked = layout({
      mcpJson,
      projectSettings: { enableAllProjectMcpServers: true },
      localSettings: { disabledMcpjsonServers: ['docs'] },
    })
    expect(Object.keys(loadClaudeCodeMcpServers({ ...picked, env: {} }).servers)).toEqual(['memory'])
    const named = layout({ mcpJson, localSettings: { enabledMcpjsonServers: ['docs'] } })
    expect(Object.keys(loadClaudeCodeMcpServers({ ...named, env: { HK_TOKEN: 't' } }).servers)).toEqual(['docs'])
  })

  it('user and local servers from .claude.json, local winning (source: its scope); unusable entries left out naming why', () => {
    const paths = layout({
      state: (projectDir: string) => ({
        mcpServers: {
          shared: { command: 'user-shared' },
          mine: { command: 'user-only' },
          old: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
          nothing: {},
        },
        projects: { [projectDir]: { mcpServers: { shared: { command: 'local-shared' }, secret: { url: 'http://x/${HK_UNSET}' } } } },
      }),
    })
    const { servers, warnings } = loadClaudeCodeMcpServers({ ...paths, env: {} })
    expect(servers).toEqual({
      shared: { type: 'stdio', command: 'local-shared', source: 'local' },
      mine: { type: 'stdio', command: 'user-only', source: 'user' },
    })
    const state = join(paths.configDir, '.claude.json')
    expect(warnings).toEqual([
      `${state}: mcpServers.old: an sse server (the deprecated HTTP+SSE transport) is not supported; left out`,
      `${state}: mcpServers.nothing: needs a command (stdio) or a url (http); left out`,
      `${state} (projects["${paths.projectDir}"]): mcpServers.secret: \${HK_UNSET} not set and no default; left out`,
    ])
  })
  it('without a config dir, user servers come from ~/.claude.json, beside ~/.claude, as Claude Code keeps them', () => {
    const home = mkdtempSync(join(tmpdir(), 'hk-claude-home-'))
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { mine: { command: 'mine' } } }))
    const projectDir = join(home, 'project')
    mkdirSync(projectDir)
    const mine = { mine: { type: 'stdio', command: 'mine', source: 'user' } }
    expect(loadClaudeCodeMcpServers({ projectDir, env: { HOME: home } }).servers).toEqual(mine)
    expect(loadClaudeCodeMcpServers({ projectDir, configDir: join(home, '.claude'), env: { HOME: home } }).servers).toEqual(mine)
  })
})
