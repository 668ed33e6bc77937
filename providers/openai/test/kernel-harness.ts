import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKernel, definePlugin, type Kernel, type KernelOptions, type Plugin, type SessionEvent } from '@harness-kernel/kernel'
import { tools } from '@harness-kernel/tools'
import { afterEach } from 'vitest'
import { type OpenAIModelOptions, openaiModel } from '../src/index.js'

export interface KernelHarness {
  kernel: Kernel
  cwd: string
  dir: string
  /** How often the kernel's per-step boundaries ran: `agent/pre-step` and `model/request` taps. */
  counts: { preStep: number; modelRequest: number }
  notices: string[]
}

export interface HarnessSetup {
  model: Partial<OpenAIModelOptions> & { baseURL: string }
  plugins?: (dir: string) => Plugin[]
  kernel?: KernelOptions
}

/** A real kernel with the OpenAI provider against the fake server, the built-in tools, and counters; disposed after each test. */
export function kernelHarnessPerTest(): (setup: HarnessSetup) => KernelHarness {
  const made: Kernel[] = []
  afterEach(async () => {
    for (const kernel of made.splice(0)) await kernel.dispose()
  })
  return (setup) => {
    const dir = mkdtempSync(join(tmpdir(), 'hk-openai-'))
    const cwd = join(dir, 'cwd')
    mkdirSync(cwd, { recursive: true })
    const counts = { preStep: 0, modelRequest: 0 }
    const notices: string[] = []
    const counter = definePlugin({
      name: 'counter',
      setup(kernel) {
        kernel.hooks.preStep.tap('count', (decision) => {
          counts.preStep++
          return decision
        })
        kernel.hooks.modelRequest.tap('count', (request) => {
          counts.modelRequest++
          return request
        })
        kernel.hooks.notice.tap('collect', ({ text }) => notices.push(text))
      },
    })
    const kernel = createKernel(
      [openaiModel({ model: 'gpt-test', apiKey: 'sk-test', ...setup.model }), tools(), counter, ...(setup.plugins?.(dir) ?? [])],
      { cwd, system: 'You are a coding agent.', modelRetry: { initialDelayMs: 1 }, ...setup.kernel },
    )
    made.push(kernel)
    return { kernel, cwd, dir, counts, notices }
  }
}

export function readEvents(path: string): SessionEvent[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
}
