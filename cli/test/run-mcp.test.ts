import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { harness, project, readEvents, sessionsIn } from './support.js'

// An MCP server of the mcp package's own suite (echo, crash, …), over stdio.
const SERVER = resolve(fileURLToPath(new URL('../../plugins/mcp/test/fixtures/test-server.mjs', import.meta.url)))

const script = `steps:
  - tool_calls:
      - name: mcp__local__echo
        input: { text: from the cli }
  - text: done
`

describe('harness run with MCP servers from the programs’ own configuration', () => {
  it("starts Codex's [mcp_servers], and the model calls their tools", async () => {
    const cwd = project({ 'script.yaml': script })
    const codexHome = join(cwd, 'codex-home')
    mkdirSync(codexHome)
    writeFileSync(
      join(codexHome, 'config.toml'),
      `[mcp_servers.local]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(SERVER)}]\n`,
    )
    const result = await harness(['run', 'use it', '--model', 'scripted:script.yaml', '--json'], { cwd, env: { CODEX_HOME: codexHome } })
    expect(result.stderr).toContain('[tool] mcp__local__echo ok: echo: from the cli')
    expect(result.code).toBe(0)
    const [id] = sessionsIn(join(cwd, '.harness', 'sessions'))
    const log = readEvents(join(cwd, '.harness', 'sessions', `${id}.jsonl`))
    expect(log.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'echo: from the cli', isError: false })
  })

  it('a project .mcp.json server that is not approved is not started, and the session says how to approve it', async () => {
    const mcpJson = { mcpServers: { local: { command: process.execPath, args: [SERVER] } } }
    const cwd = project({ 'script.yaml': script, '.mcp.json': JSON.stringify(mcpJson) })
    const result = await harness(['run', 'use it', '--model', 'scripted:script.yaml', '--json'], { cwd })
    const [id] = sessionsIn(join(cwd, '.harness', 'sessions'))
    const log = readEvents(join(cwd, '.harness', 'sessions', `${id}.jsonl`))
    expect(log.find((event) => event.type === 'tool/result')).toMatchObject({ isError: true })
    const notice = log.find((event) => event.type === 'notice' && event.source === 'mcp')
    expect(notice?.type === 'notice' && notice.text).toContain('local not started: project MCP servers need approval')
    expect(result.code).toBe(0)

    mkdirSync(join(cwd, '.claude'), { recursive: true })
    writeFileSync(join(cwd, '.claude', 'settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['local'] }))
    await harness(['run', 'use it', '--model', 'scripted:script.yaml'], { cwd })
    const second = sessionsIn(join(cwd, '.harness', 'sessions')).find((session) => session !== id)!
    const approved = readEvents(join(cwd, '.harness', 'sessions', `${second}.jsonl`))
    expect(approved.find((event) => event.type === 'tool/result')).toMatchObject({ output: 'echo: from the cli', isError: false })
  })
})
