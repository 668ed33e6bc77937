import type { KernelApi, ToolDefinition } from '@harness-kernel/kernel'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type ToolsOptions, tools } from '../src/index.js'
import { callTool, tempDir, toolContext } from './helpers.js'

const dir = tempDir()
afterAll(() => dir.remove())

async function registered(options?: ToolsOptions): Promise<ToolDefinition<never>[]> {
  const list: ToolDefinition<never>[] = []
  const kernel = { registerTool: (tool: ToolDefinition<never>) => list.push(tool) } as unknown as KernelApi
  await tools(options).setup(kernel)
  return list
}

describe('tools plugin', () => {
  it('is named tools and registers all four tools by default', async () => {
    expect(tools().name).toBe('tools')
    const list = await registered()
    expect(list.map((tool) => [tool.name, tool.aliases, tool.parallel ?? false])).toEqual([
      ['shell', { codex: 'Bash', claudeCode: 'Bash' }, false],
      ['read_file', { codex: 'read_file', claudeCode: 'Read' }, true],
      ['write_file', { codex: 'write_file', claudeCode: 'Write' }, false],
      ['edit_file', { codex: 'edit_file', claudeCode: 'Edit' }, false],
    ])
  })

  it('registers only the included tools', async () => {
    const list = await registered({ include: ['read_file', 'edit_file'] })
    expect(list.map((tool) => tool.name)).toEqual(['read_file', 'edit_file'])
  })

  it('rejects an unknown tool name in include', () => {
    expect(() => tools({ include: ['shell', 'grep' as never] })).toThrow(/unknown tool "grep"/)
  })

  it('passes the shell options to the shell tool', async () => {
    const [shell] = await registered({ include: ['shell'], shell: { timeoutMs: 300 } })
    const result = await callTool(shell as ToolDefinition<unknown>, { command: 'sleep 30' }, toolContext(dir.path))
    expect(result).toMatchObject({ output: '[timed out after 300 ms]', isError: true })
  })

  it('passes shellEnvironment to the shell tool, over shell.environment', async () => {
    process.env.TOOLS_PLUGIN_TEST_TOKEN = 'secret-value'
    try {
      const call = async (options: ToolsOptions) => {
        const [shell] = await registered({ include: ['shell'], ...options })
        const command = { command: 'echo "[$TOOLS_PLUGIN_TEST_TOKEN]"' }
        return (await callTool(shell as ToolDefinition<unknown>, command, toolContext(dir.path))).output
      }
      expect(await call({})).toBe('[]')
      expect(await call({ shellEnvironment: { ignoreDefaultExcludes: true } })).toBe('[secret-value]')
      expect(await call({ shell: { environment: { ignoreDefaultExcludes: true } } })).toBe('[secret-value]')
      const both = { shell: { environment: { ignoreDefaultExcludes: true } }, shellEnvironment: { set: { X: '1' } } }
      expect(await call(both)).toBe('[]')
    } finally {
      delete process.env.TOOLS_PLUGIN_TEST_TOKEN
    }
  })

  it('rejects an invalid shellEnvironment when created', () => {
    expect(() => tools({ shellEnvironment: { inherit: 'everything' as never } })).toThrow(
      'tools: shellEnvironment.inherit must be one of all, core, none; got "everything"',
    )
  })

  it('documents every input field in the JSON schema', async () => {
    for (const tool of await registered()) {
      const schema = z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' }) as {
        properties: Record<string, { description?: string }>
      }
      for (const [field, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy()
      }
    }
  })
})
