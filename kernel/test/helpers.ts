import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { ModelProvider } from '../src/index.js'
import { definePlugin, defineTool, type KernelApi, type Plugin, type SetupResult, type ToolDefinition } from '../src/index.js'

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'hk-kernel-'))
}

export const echoModel: ModelProvider = {
  id: 'echo',
  async generate(request) {
    const last = request.messages.at(-1)
    const text = last?.content.map((block) => (block.type === 'text' ? block.text : '')).join('') ?? ''
    return { content: [{ type: 'text', text: `echo: ${text}` }] }
  },
}

export function plugin(name: string, setup: (kernel: KernelApi) => unknown, replaces?: string[]): Plugin {
  return definePlugin({ name, ...(replaces ? { replaces } : {}), setup: (kernel) => setup(kernel) as SetupResult })
}

export const modelPlugin = plugin('model', (kernel) => kernel.provide('model', echoModel))

/** A tool `echo` that answers with its `text`; `onRun` sees each text it ran with. */
export function echoTool(onRun: (text: string) => void = () => {}): ToolDefinition<{ text: string }> {
  return defineTool({
    name: 'echo',
    description: 'Echo the text.',
    inputSchema: z.object({ text: z.string() }),
    async execute({ text }) {
      onRun(text)
      return { output: text, isError: false }
    },
  })
}
