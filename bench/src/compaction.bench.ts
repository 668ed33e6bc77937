import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  COMPACTION_PROMPT,
  compaction,
  createKernel,
  definePlugin,
  defineTool,
  estimateTokens,
  type Message,
  type ModelProvider,
  textOf,
} from '@harness-kernel/kernel'
import { z } from 'zod'
import { fmt, gc } from './measure.js'
import type { Section } from './report.js'

/** Heap and log at one step, after a full GC. */
interface Sample {
  step: number
  heapUsed: number
  rss: number
  logBytes: number
}

/** A tool whose result is `outputChars` characters: the conversation grows by about that much a step. */
const fillTool = (outputChars: number) =>
  defineTool({
    name: 'fill',
    description: 'Returns a long text.',
    inputSchema: z.object({}),
    execute: async () => ({ output: 'x'.repeat(outputChars), isError: false }),
  })

/**
 * Calls `fill` until `steps` calls were made in the turn (counted by the model itself, since a compaction removes the
 * earlier calls from view), then answers; a summary request gets a short summary. Records each request's estimated
 * size, the compactor's own measure.
 */
function model(steps: number, sizes: number[]): ModelProvider {
  let calls = 0
  return {
    id: 'bench-compaction',
    async generate(request) {
      const last = request.messages.at(-1) as Message
      if (textOf(last).startsWith(COMPACTION_PROMPT.slice(0, 40)))
        return { content: [{ type: 'text', text: `Summary: ${calls} calls of fill so far; keep calling it.` }] }
      sizes.push(estimateTokens(request))
      if (calls >= steps - 1) return { content: [{ type: 'text', text: 'done' }] }
      calls++
      return { content: [{ type: 'tool_call', id: `call_${calls}`, name: 'fill', input: {} }] }
    },
  }
}

/**
 * (q) A long session under automatic compaction: one turn of `steps` model steps, each tool result `outputChars`
 * characters, with `compaction({ contextWindow })` (threshold 0.8). Reported: the largest request the model was sent
 * (by the compactor's estimate) against the window, how many compactions ran, and heap after GC sampled along the way.
 */
export async function compactionBench(options: { steps: number; outputChars: number; contextWindow: number }): Promise<Section> {
  const { steps, outputChars, contextWindow } = options
  const dir = mkdtempSync(join(tmpdir(), 'hk-bench-compaction-'))
  try {
    const sizes: number[] = []
    const samples: Sample[] = []
    let compactions = 0
    let step = 0
    let path = ''
    const probe = definePlugin({
      name: 'bench-probe',
      setup(kernel) {
        kernel.provide('model', model(steps, sizes))
        kernel.registerTool(fillTool(outputChars))
        kernel.hooks.sessionEvent.tap('bench-probe', ({ event }) => {
          if (event.type === 'compaction') compactions++
          if (event.type !== 'step/start') return
          step = event.step
          if (step % Math.max(1, Math.floor(steps / 20)) === 0) {
            gc()
            const memory = process.memoryUsage()
            samples.push({ step, heapUsed: memory.heapUsed, rss: memory.rss, logBytes: statSync(path).size })
          }
        })
      },
    })
    const kernel = createKernel([probe, compaction({ contextWindow, threshold: 0.8 })], { cwd: dir, fsync: 'never' })
    const session = await kernel.startSession()
    path = session.transcriptPath
    const started = performance.now()
    const result = await session.run('fill the context')
    const totalMs = performance.now() - started
    await session.end()
    await kernel.dispose()
    const largest = Math.max(...sizes)
    const early = samples.find((sample) => sample.step >= steps / 10) ?? samples[0]
    const late = samples.at(-1)
    const mb = (bytes: number | undefined) => fmt((bytes ?? 0) / 2 ** 20, 1)
    const rows = samples
      .filter((_, index) => index % 4 === 0 || index === samples.length - 1)
      .map((sample) => [String(sample.step), mb(sample.heapUsed), mb(sample.rss), mb(sample.logBytes)])
    return {
      title: '(q) compaction: a long session under its budget',
      head: ['step', 'heapUsed after GC, MB', 'RSS, MB', 'log, MB'],
      rows,
      notes: [
        `One turn of ${steps} steps (${result.status}, ${fmt(totalMs)} ms), each tool result ${outputChars} characters ` +
          `(~${outputChars / 4} tokens), \`compaction({ contextWindow: ${contextWindow}, threshold: 0.8 })\`: ` +
          `**${compactions} compactions**; the largest request sent was ${fmt(largest)} estimated tokens, ` +
          `**${fmt((largest / contextWindow) * 100, 1)}% of the window** (the budget: 80%). Heap after GC ${mb(early?.heapUsed)} MB ` +
          `at step ${early?.step} and ${mb(late?.heapUsed)} MB at step ${late?.step}; the log grows (it keeps everything).`,
      ],
      data: { options, status: result.status, totalMs, compactions, largest, samples },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
