import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createKernel, type Kernel, type Message, type SessionEvent } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach, describe, expect, it } from 'vitest'
import { processesNamed } from '../../../kernel/test/support/marked-processes.js'
import { type McpServerConfig, mcp, mcpToolName } from '../src/index.js'

const SERVER = fileURLToPath(new URL('./fixtures/test-server.mjs', import.meta.url))
const stdioServer: McpServerConfig = { command: process.execPath, args: [SERVER] }

const kernels: Kernel[] = []
const children: ChildProcess[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

function harness(servers: Record<string, McpServerConfig>, script: ScriptStep[]) {
  const model = scriptedModel({ script })
  const kernel = createKernel([model, mcp({ servers })], { cwd: mkdtempSync(join(tmpdir(), 'hk-mcp-')) })
  kernels.push(kernel)
  return { kernel, model: model.model }
}

const call = (name: string, input: Record<string, unknown> = {}): ScriptStep => ({ tool_calls: [{ name, input }] })
const results = (messages: readonly Message[]) =>
  messages
    .flatMap((message) => message.content)
    .flatMap((block) => (block.type === 'tool_result' ? [[block.output, block.isError] as const] : []))
const events = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)

describe('MCP servers as kernel tools', () => {
  it("registers a stdio server's tools as mcp__<server>__<tool> with the server's own input schema, and maps each result", async () => {
    const { kernel, model } = harness({ local: stdioServer }, [
      call('mcp__local__echo', { text: 'hi' }),
      call('mcp__local__picture'),
      call('mcp__local__weather'),
      call('mcp__local__forecast'),
      call('mcp__local__fail'),
      call('mcp__local__echo', { text: '' }),
      { text: 'done' },
    ])
    const session = await kernel.startSession()
    const result = await session.run('use the tools')
    expect(result.status).toBe('completed')
    const tools = model.requests[0]?.tools ?? []
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['crash', 'echo', 'fail', 'forecast', 'picture', 'pid', 'spawn', 'weather'].map((tool) => `mcp__local__${tool}`),
    )
    expect(tools.find((tool) => tool.name === 'mcp__local__echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, description: 'what to echo' } },
      required: ['text'],
    })
    const outputs = results(session.messages)
    expect(outputs.slice(0, 5)).toEqual([
      ['echo: hi', false],
      ['[image: image/png, 16 bytes]\n\na caption', false],
      ['{"temperature":21.5,"unit":"C"}', false],
      // A text block and structuredContent: the model sees the structuredContent's JSON, not the text, in both
      // programs (observed: conformance scenarios codex/mcp-structured and claude-code/m02-mcp-structured).
      ['{"temperature":21.5,"unit":"C"}', false],
      ['it broke', true],
    ])
    // The server's own input check, reported as an error result.
    expect(outputs[5]?.[1]).toBe(true)
    expect(outputs[5]?.[0]).toMatch(/text/)
  })

  it('talks to a server over streamable HTTP', async () => {
    const server = spawn(process.execPath, [SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] })
    children.push(server)
    const port = await new Promise<string>((resolve) =>
      createInterface({ input: server.stdout! }).once('line', (line) => resolve(line.split(' ')[1]!)),
    )
    const { kernel } = harness({ remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }, [
      call('mcp__remote__echo', { text: 'over http' }),
      { text: 'done' },
    ])
    const session = await kernel.startSession()
    await session.run('go')
    expect(results(session.messages)).toEqual([['echo: over http', false]])
  })

  it('starts a crashed server again on the next call, with a notice naming how it ended', async () => {
    const { kernel } = harness({ local: stdioServer }, [
      call('mcp__local__pid'),
      call('mcp__local__crash'),
      call('mcp__local__pid'),
      { text: 'done' },
    ])
    const session = await kernel.startSession()
    await session.run('go')
    const [first, crashed, second] = results(session.messages)
    expect(crashed?.[1]).toBe(true)
    expect(crashed?.[0]).toMatch(/^MCP tool mcp__local__crash failed: /)
    expect(second?.[1]).toBe(false)
    expect(second?.[0]).not.toBe(first?.[0])
    const notice = events(session.transcriptPath).find((event) => event.type === 'notice' && event.source === 'mcp')
    expect(notice).toMatchObject({ level: 'warning' })
    expect(notice?.type === 'notice' && notice.text).toBe(
      'MCP server "local" stopped (its process exited with code 3; its stderr ended with: crashing on purpose); started it again for mcp__local__pid',
    )
  })

  it('a server that does not start is a notice naming it and why; the other servers work', async () => {
    const { kernel } = harness({ broken: { command: '/nonexistent/mcp-server' }, local: stdioServer }, [
      call('mcp__local__echo', { text: 'still here' }),
      { text: 'done' },
    ])
    const session = await kernel.startSession()
    await session.run('go')
    expect(results(session.messages)).toEqual([['echo: still here', false]])
    const notice = events(session.transcriptPath).find((event) => event.type === 'notice' && event.source === 'mcp')
    expect(notice?.type === 'notice' && notice.text).toMatch(/^MCP server "broken" did not start: .*ENOENT.*; its tools are not available$/)
  })

  it.skipIf(process.platform !== 'linux')('stops a stdio server with its process group when the kernel is disposed', async () => {
    const marker = `hk-mcp-${process.pid}`
    const { kernel } = harness({ local: stdioServer }, [call('mcp__local__spawn', { marker }), { text: 'done' }])
    const session = await kernel.startSession()
    await session.run('go')
    expect(processesNamed(marker)).toHaveLength(1)
    await kernel.dispose()
    expect(processesNamed(marker)).toEqual([])
  })

  it('names tools as both programs do, and refuses a bad configuration naming the server and the field', () => {
    expect(mcpToolName('my server', 'do.it')).toBe('mcp__my_server__do_it')
    expect(mcpToolName('s', 'x'.repeat(80))).toMatch(/^mcp__s__x{47}_[0-9a-f]{8}$/)
    expect(() => mcp({ servers: { local: { command: '' } } })).toThrow('mcp: server "local": command must be a non-empty string')
    expect(() => mcp({ servers: { web: { type: 'http', url: 'ftp://x' } } })).toThrow(
      'mcp: server "web": url must be http or https, got ftp:',
    )
    expect(() => mcp({ servers: { 'a.b': stdioServer } })).toThrow("letters, digits, '_' and '-' only")
  })
})
