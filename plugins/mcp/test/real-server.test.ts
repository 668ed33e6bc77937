import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createKernel, type Kernel } from '@harness-kernel/kernel'
import { scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach, describe, expect, it } from 'vitest'
import { mcp } from '../src/index.js'

// A real MCP server from npm (pinned devDependency), run as a user would: its bin, over stdio.
const memoryPackage = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/package.json')
const memoryBin = join(
  dirname(memoryPackage),
  (JSON.parse(readFileSync(memoryPackage, 'utf8')) as { bin: Record<string, string> }).bin['mcp-server-memory']!,
)

const kernels: Kernel[] = []
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.dispose()
})

describe('@modelcontextprotocol/server-memory 2026.8.31 over stdio', () => {
  it('its tools are kernel tools named mcp__memory__*, and a write is read back through them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-mcp-memory-'))
    const entity = { name: 'harness', entityType: 'project', observations: ['runs MCP tools'] }
    const model = scriptedModel({
      script: [
        { tool_calls: [{ name: 'mcp__memory__create_entities', input: { entities: [entity] } }] },
        { tool_calls: [{ name: 'mcp__memory__search_nodes', input: { query: 'harness' } }] },
        { text: 'done' },
      ],
    })
    const servers = { memory: { command: process.execPath, args: [memoryBin], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } } }
    const kernel = createKernel([model, mcp({ servers })], { cwd: dir })
    kernels.push(kernel)
    const session = await kernel.startSession()
    const result = await session.run('remember')
    expect(result.status).toBe('completed')
    const names = (model.model.requests[0]?.tools ?? []).map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['mcp__memory__create_entities', 'mcp__memory__read_graph', 'mcp__memory__search_nodes']))
    const outputs = session.messages.flatMap((message) => message.content).flatMap((block) => (block.type === 'tool_result' ? [block] : []))
    expect(outputs.map((block) => block.isError)).toEqual([false, false])
    const found = JSON.parse(outputs[1]!.output) as { entities: { name: string; observations: string[] }[] }
    expect(found.entities).toEqual([expect.objectContaining({ name: 'harness', observations: ['runs MCP tools'] })])
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('"name":"harness"')
  })
})
