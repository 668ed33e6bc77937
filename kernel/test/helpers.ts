import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ModelProvider } from '../src/index.js'
import { definePlugin, type KernelApi, type Plugin, type SetupResult } from '../src/index.js'

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
