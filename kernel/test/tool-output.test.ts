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
