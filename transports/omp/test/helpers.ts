import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, defineTool, type Kernel, type KernelApi, type Plugin, type SessionEvent } from '@harness-kernel/kernel'
import { type ScriptStep, scriptedModel } from '@harness-kernel/scripted-model'
import { afterEach } from 'vitest'
import { z } from 'zod'
import type { UserMessage } from '../src/index.js'
import type { FakeOmpAgent } from './fake-omp.js'

export interface Harness {
  kernel: Kernel
  model: ReturnType<typeof scriptedModel>['model']
}

/** `setup(script, plugins)` builds a kernel in a temp dir; it is disposed after the test. */
export function harnessPerTest(): (script: ScriptStep[], plugins: Plugin[]) => Harness {
  let current: Kernel | undefined
  afterEach(async () => {
    await current?.dispose()
    current = undefined
  })
  return (script, plugins) => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-omp-'))
    const model = scriptedModel({ script })
    current = createKernel([model, ...plugins], { cwd: dir, modelRetry: { initialDelayMs: 1, maxDelayMs: 2 } })
    return { kernel: current, model: model.model }
  }
}

export function plugin(name: string, setup: (kernel: KernelApi) => void): Plugin {
  return definePlugin({ name, setup })
}

/**
 * A tool that queues user input in OMP while it runs: `say` strings become text messages,
 * `messages` are queued as given.
 */
export function steeringTool(agent: () => FakeOmpAgent, onRun?: () => void): Plugin {
  return plugin('omp-test-tools', (kernel) => {
    kernel.registerTool(
      defineTool({
        name: 'work',
        description: 'Does work; the user steers meanwhile.',
        inputSchema: z.object({ say: z.array(z.string()) }),
        async execute({ say }) {
          for (const text of say) agent().push(text)
          onRun?.()
          return { output: 'worked', isError: false }
        },
      }),
    )
  })
}

export function readEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SessionEvent)
}

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

export const texts = (messages: readonly UserMessage[]): string[] =>
  messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))

/** Resolves a macrotask later, once every promise reaction queued so far has run: what was due to settle has. */
export const settled = () => new Promise((resolve) => setImmediate(resolve))

export { waitUntil } from '@harness-kernel/testing'
