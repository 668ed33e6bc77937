import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKernel,
  definePlugin,
  defineTool,
  type Kernel,
  type KernelApi,
  type KernelOptions,
  type Plugin,
  type SessionEvent,
} from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach } from 'vitest'
import { z } from 'zod'

export function tempDir(prefix = 'hk-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export interface Harness {
  kernel: Kernel
  model: ReturnType<typeof scriptedModel>['model']
  dir: string
}

export function harness(script: ScriptStep[], plugins: Plugin[] = [], options: KernelOptions = {}): Harness {
  const dir = tempDir()
  const model = scriptedModel({ script })
  const kernel = createKernel([model, ...plugins], { cwd: dir, modelRetry: { initialDelayMs: 1, maxDelayMs: 2 }, ...options })
  return { kernel, model: model.model, dir }
}

/** `setup(...)` builds a harness whose kernel is disposed after the test. */
export function harnessPerTest(): (...args: Parameters<typeof harness>) => Harness {
  let current: Harness | undefined
  afterEach(async () => {
    await current?.kernel.dispose()
    current = undefined
  })
  return (...args) => {
    current = harness(...args)
    return current
  }
}

/** A plugin from a setup function, for tests. */
export function plugin(name: string, setup: (kernel: KernelApi) => void): Plugin {
  return definePlugin({ name, setup })
}

export function readEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

import { waitUntil } from '@harness-kernel/testing'

export { waitUntil }

/** Resolves a macrotask later, once every promise reaction queued so far has run: what was due to settle has. */
export const settled = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Tools for loop tests: `echo` (exclusive) and `slow` (parallel-safe: it echoes once the `slow` call echoing `after`
 * has finished; run one after another, the first of two such calls would wait in vain).
 */
export const testTools = plugin('test-tools', (kernel) => {
  const finished = new Set<string>()
  kernel.registerTool(
    defineTool({
      name: 'echo',
      description: 'Echo the text.',
      inputSchema: z.object({ text: z.string() }),
      async execute({ text }) {
        return { output: text, isError: false }
      },
    }),
  )
  kernel.registerTool(
    defineTool({
      name: 'slow',
      description: 'Wait for another call to finish, then echo.',
      inputSchema: z.object({ text: z.string(), after: z.string().optional() }),
      parallel: true,
      async execute({ text, after }) {
        if (after !== undefined) await waitUntil(() => finished.has(after), `the call echoing ${after}`)
        finished.add(text)
        return { output: text, isError: false }
      },
    }),
  )
})

/** Text of every message of a request, one string per message: `role:text`. */
export function flatten(messages: readonly { role: string; content: readonly { type: string }[] }[]): string[] {
  return messages.map((message) => {
    const parts = message.content.map((block) => {
      const b = block as { type: string; text?: string; name?: string; output?: string }
      if (b.type === 'text') return b.text
      if (b.type === 'tool_call') return `call:${b.name}`
      return `result:${b.output}`
    })
    return `${message.role}:${parts.join('|')}`
  })
}
