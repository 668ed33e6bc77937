import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Options } from '@anthropic-ai/claude-agent-sdk'
import { newInput } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { claudeExecutable } from '../src/index.js'
import { serversSentAtInitialize } from '../src/mcp-delivery.js'
import { type DriverHarness, driverHarness } from './support/driver-harness.js'

/**
 * The user's MCP servers (`queryOptions.mcpServers`) with the Agent SDK 0.3.336 and Claude Code 2.1.336: the SDK sends
 * them over stdin by default (`mcpServersDelivery: 'initialize'`), so their `env` stays off Claude Code's command line.
 */

const SECRET = 'hk-secret-7f3a9c'
const require = createRequire(import.meta.url)

let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  if (current) rmSync(current.dir, { recursive: true, force: true })
  current = undefined
})

/** A stdio MCP server with one tool, `whoami`: it answers with what it got in `MCP_SECRET` and its parent's pid. */
function writeServer(dir: string): string {
  const path = join(dir, 'secret-server.cjs')
  const sdk = (name: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${name}`))
  writeFileSync(
    path,
    `const { Server } = require(${sdk('server/index.js')})
const { StdioServerTransport } = require(${sdk('server/stdio.js')})
const { CallToolRequestSchema, ListToolsRequestSchema } = require(${sdk('types.js')})
const server = new Server({ name: 'secret', version: '1.0.0' }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'whoami', description: 'Says who runs it.', inputSchema: { type: 'object', properties: {} } }],
}))
server.setRequestHandler(CallToolRequestSchema, async () => ({
  content: [{ type: 'text', text: 'secret=' + process.env.MCP_SECRET + ' parent=' + process.ppid }],
}))
server.connect(new StdioServerTransport())
`,
  )
  return path
}

/** A script in place of Claude Code: what the SDK describes for one older than 2.1.326, or a wrapper that drops a flag. */
function writeWrapper(dir: string, name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

const OLD_CLAUDE = `for a in "$@"; do [ "$a" = --await-initialize ] && { echo "error: unknown option '--await-initialize'" >&2; exit 1; }; done
exec "${claudeExecutable()}" "$@"`
const DROPS_AWAIT_INITIALIZE = `for a in "$@"; do shift; [ "$a" = --await-initialize ] || set -- "$@" "$a"; done
exec "${claudeExecutable()}" "$@"`

async function withUserServer(options: { delivery?: 'argv' | 'initialize'; executable?: (dir: string) => string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hk-cc-mcp-'))
  const queryOptions: Partial<Options> = {
    mcpServers: { user: { type: 'stdio', command: process.execPath, args: [writeServer(dir)], env: { MCP_SECRET: SECRET } } },
    allowedTools: ['mcp__user__whoami'],
    ...(options.delivery ? { mcpServersDelivery: options.delivery } : {}),
  }
  const executable = options.executable?.(dir)
  current = await driverHarness({ dir, driver: { queryOptions, ...(executable ? { executable } : {}) } })
  const session = await current.kernel.startSession()
  const result = await session.run('Ask the server [[tool:mcp__user__whoami:{}]]')
  return { result, server: current.server }
}

/** The tool's answer as the model got it, and Claude Code's command line (the server's parent is Claude Code). */
function toolAnswer(server: DriverHarness['server']) {
  const output = server.requests.flatMap((request) => newInput(request)).find((text) => text.startsWith('output:secret='))
  const parent = /parent=(\d+)/.exec(output ?? '')?.[1]
  const argv = parent ? readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0') : []
  return { output, argv }
}

describe('a user stdio MCP server with a secret in its env', () => {
  it('by default (over stdin): its tool is called and answers, and the secret is not on Claude Code’s command line', {
    timeout: 60_000,
  }, async () => {
    const { result, server } = await withUserServer()
    expect(result.status).toBe('completed')
    const { output, argv } = toolAnswer(server)
    expect(output).toBe(`output:secret=${SECRET} parent=${/parent=(\d+)/.exec(output ?? '')?.[1]}`)
    expect(argv[0]).toBe(claudeExecutable())
    expect(argv).toContain('--await-initialize')
    expect(argv.some((arg) => arg.includes(SECRET))).toBe(false)
    expect(argv.some((arg) => arg.startsWith('--mcp-config'))).toBe(false)
  })

  it("with queryOptions.mcpServersDelivery 'argv': it works too, with the secret on the command line (the user's choice)", {
    timeout: 60_000,
  }, async () => {
    const { result, server } = await withUserServer({ delivery: 'argv' })
    expect(result.status).toBe('completed')
    const { output, argv } = toolAnswer(server)
    expect(output).toContain(`secret=${SECRET}`)
    expect(argv).toContain('--mcp-config')
    expect(argv.some((arg) => arg.includes(SECRET))).toBe(true)
  })
})

describe('a Claude Code that cannot take the servers over stdin', () => {
  it('older than 2.1.326 (refuses --await-initialize): the turn fails naming the cause and the fixes; nothing reaches the model', {
    timeout: 60_000,
  }, async () => {
    let wrapper = ''
    const { result, server } = await withUserServer({
      executable: (dir) => {
        wrapper = writeWrapper(dir, 'old-claude', OLD_CLAUDE)
        return wrapper
      },
    })
    expect(result.status).toBe('failed')
    expect(result.error).toContain(`Claude Code at ${wrapper} is too old for the MCP servers of queryOptions.mcpServers (user)`)
    expect(result.error).toContain('2.1.326 or newer')
    expect(result.error).toContain("queryOptions.mcpServersDelivery: 'argv'")
    expect(result.error).toContain("unknown option '--await-initialize'")
    expect(server.requests).toHaveLength(0)
  })

  it("the same old Claude Code with mcpServersDelivery 'argv': the server works", { timeout: 60_000 }, async () => {
    const { result, server } = await withUserServer({ delivery: 'argv', executable: (dir) => writeWrapper(dir, 'old-claude', OLD_CLAUDE) })
    expect(result.status).toBe('completed')
    expect(toolAnswer(server).output).toContain(`secret=${SECRET}`)
  })

  it('a wrapper that drops --await-initialize (mcp_servers_applied false): the turn fails rather than run without the servers', {
    timeout: 60_000,
  }, async () => {
    let wrapper = ''
    const { result, server } = await withUserServer({
      executable: (dir) => {
        wrapper = writeWrapper(dir, 'wrapped-claude', DROPS_AWAIT_INITIALIZE)
        return wrapper
      },
    })
    expect(result.status).toBe('failed')
    expect(result.error).toContain(`Claude Code at ${wrapper} did not load the MCP servers of queryOptions.mcpServers (user)`)
    expect(result.error).toContain('mcp_servers_applied: false')
    expect(result.error).toContain("queryOptions.mcpServersDelivery: 'argv'")
    expect(server.requests).toHaveLength(0)
  })
})

describe('which servers go over stdin', () => {
  it("the user's stdio, SSE and HTTP servers unless 'argv'; never in-process ones", () => {
    const servers: Options['mcpServers'] = {
      local: { command: 'node', args: ['server.js'] },
      remote: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { authorization: 'secret' } },
      inProcess: { type: 'sdk', name: 'inProcess', instance: {} as never },
    }
    expect(serversSentAtInitialize({ mcpServers: servers })).toEqual(['local', 'remote'])
    expect(serversSentAtInitialize({ mcpServers: servers, mcpServersDelivery: 'initialize' })).toEqual(['local', 'remote'])
    expect(serversSentAtInitialize({ mcpServers: servers, mcpServersDelivery: 'argv' })).toEqual([])
    expect(serversSentAtInitialize({})).toEqual([])
  })
})
