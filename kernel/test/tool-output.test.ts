import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createKernel, defineTool, type ModelProvider, type ToolContext } from '../src/index.js'
import { plugin, tempDir } from './helpers.js'

/** Calls the tool `talk` once, then answers `done`. */
const callsOnce: ModelProvider = {
  id: 'calls-once',
  async generate(request) {
    if (request.messages.some((message) => message.role === 'tool')) return { content: [{ type: 'text', text: 'done' }] }
    return { content: [{ type: 'tool_call', id: 'call_1', name: 'talk', input: {} }] }
  },
}

/** A tool that streams two pieces of output, and what it saw of `context.output`. */
function talkingTool(contexts: ToolContext[]) {
  return plugin('talk', (kernel) => {
    kernel.provide('model', callsOnce)
    kernel.registerTool(
      defineTool({
        name: 'talk',
        description: 'Talks.',
        inputSchema: z.object({}),
        async execute(_input, context) {
          contexts.push(context)
          context.output?.('stdout', 'one ')
          context.output?.('stderr', 'two')
          return { output: 'one two', isError: false }
        },
      }),
    )
  })
}

describe('tools/output', () => {
  it('passes what a tool streams to its taps, with the call, before the call is logged as done', async () => {
    const contexts: ToolContext[] = []
    const seen: string[] = []
    const observer = plugin('observer', (kernel) => {
      kernel.hooks.toolOutput.tap('observer', ({ call, stream, text, turn, step }) => {
        seen.push(`${call.id} ${call.name} ${stream}:${text} step ${step} ${turn.id === undefined ? 'no turn' : 'turn'}`)
      })
      kernel.hooks.sessionEvent.tap('observer', ({ event }) => {
        if (event.type === 'tool/result') seen.push(`tool/result ${event.output}`)
      })
    })
    const kernel = createKernel([talkingTool(contexts), observer], { cwd: tempDir() })
    const session = await kernel.startSession()
    expect(await session.run('go')).toMatchObject({ status: 'completed' })
    expect(seen).toEqual(['call_1 talk stdout:one  step 1 turn', 'call_1 talk stderr:two step 1 turn', 'tool/result one two'])
    expect(kernel.hook('tools/output')).toBe(kernel.hooks.toolOutput)
    await kernel.dispose()
  })

  it('gives the tool no output callback while nothing taps the point', async () => {
    const contexts: ToolContext[] = []
    const kernel = createKernel([talkingTool(contexts)], { cwd: tempDir() })
    const session = await kernel.startSession()
    expect(await session.run('go')).toMatchObject({ status: 'completed' })
    expect(contexts).toHaveLength(1)
    expect(contexts[0]!.output).toBeUndefined()
    await kernel.dispose()
  })
})

describe('a tool result over maxToolOutputBytes', () => {
  /** A tool `talk` whose result is `text`; what the post-execute tap and the model saw of it. */
  function floodingTool(text: string, seen: { post?: string; model?: string }) {
    return plugin('talk', (kernel) => {
      kernel.provide('model', {
        id: 'calls-once',
        async generate(request) {
          const result = request.messages.flatMap((message) => message.content).find((block) => block.type === 'tool_result')
          if (result?.type === 'tool_result') {
            seen.model = result.output
            return { content: [{ type: 'text', text: 'done' }] }
          }
          return { content: [{ type: 'tool_call', id: 'call_1', name: 'talk', input: {} }] }
        },
      } satisfies ModelProvider)
      kernel.hooks.toolPostExecute.tap('probe', (decision, { result }) => {
        seen.post = result.output
        return decision
      })
      kernel.registerTool(
        defineTool({
          name: 'talk',
          description: 'Talks a lot.',
          inputSchema: z.object({}),
          execute: async () => ({ output: text, isError: false }),
        }),
      )
    })
  }

  it('keeps its two ends around a marker saying how much there was, for the taps and the model alike', async () => {
    const text = `${'a'.repeat(600)}${'é'.repeat(300)}${'z'.repeat(600)}`
    const seen: { post?: string; model?: string } = {}
    const kernel = createKernel([floodingTool(text, seen)], { cwd: tempDir(), maxToolOutputBytes: 1000 })
    await (await kernel.startSession()).run('go')
    expect(seen.model).toBe(seen.post)
    expect(seen.model).toBe(`${'a'.repeat(500)}\n…[truncated: 1,800 bytes in all; the first 500 and last 500 shown]…\n${'z'.repeat(500)}`)
    await kernel.dispose()
  })

  it('passes a result at the limit whole; the limit must be a whole number > 0', async () => {
    const seen: { post?: string; model?: string } = {}
    const kernel = createKernel([floodingTool('x'.repeat(1000), seen)], { cwd: tempDir(), maxToolOutputBytes: 1000 })
    await (await kernel.startSession()).run('go')
    expect(seen.model).toBe('x'.repeat(1000))
    await kernel.dispose()
    expect(() => createKernel([], { maxToolOutputBytes: 0 })).toThrow('maxToolOutputBytes must be a whole number > 0, got 0')
  })
})
