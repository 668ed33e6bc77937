import { definePlugin, defineTool, type Plugin } from '@harness-kernel/kernel'
import { z } from 'zod'

export interface ParkedCall {
  index: number
  id: string
  label: string
  signal: AbortSignal
  release(text?: string): void
}

/**
 * A kernel tool `park` whose calls wait until the test releases them, so steering can arrive while a
 * call is parked inside Claude Code. `parallel` marks it parallel-safe (Claude Code then runs the calls
 * of one message together).
 */
export function parkTool(options: { parallel?: boolean; autoRelease?: boolean; releaseAfterMs?: () => number } = {}) {
  const calls: ParkedCall[] = []
  const waiters: { index: number; resolve(call: ParkedCall): void }[] = []
  const plugin: Plugin = definePlugin({
    name: 'park-tool',
    setup(kernel) {
      kernel.registerTool(
        defineTool({
          name: 'park',
          description: 'Waits until the host releases it.',
          inputSchema: z.object({ label: z.string() }),
          ...(options.parallel ? { parallel: true } : {}),
          execute: ({ label }, { callId, signal }) =>
            new Promise((resolve) => {
              const call: ParkedCall = {
                index: calls.length,
                id: callId,
                label,
                signal,
                release: (text = `parked ${label} done`) => resolve({ output: text, isError: false }),
              }
              calls.push(call)
              signal.addEventListener('abort', () => resolve({ output: 'aborted', isError: true }), { once: true })
              for (const waiter of waiters.filter((candidate) => candidate.index === call.index)) waiter.resolve(call)
              if (options.autoRelease) call.release()
              if (options.releaseAfterMs) setTimeout(() => call.release(), options.releaseAfterMs())
            }),
        }),
      )
    },
  })
  return {
    plugin,
    calls,
    /** Resolves when call number `index` (from 0) is parked. */
    parked(index: number): Promise<ParkedCall> {
      const call = calls[index]
      if (call) return Promise.resolve(call)
      return new Promise((resolve) => waiters.push({ index, resolve }))
    },
  }
}

export const parkDirective = (label: string) => `[[tool:mcp__host__park:${JSON.stringify({ label })}]]`
export const parkBatch = (...labels: string[]) =>
  `[[tools:${JSON.stringify(labels.map((label) => ({ name: 'mcp__host__park', input: { label } })))}]]`
