import { describe, expect, it } from 'vitest'
import { createKernel, ModelError, type ModelProvider, type ModelResponsePayload } from '../src/index.js'
import { echoTool, plugin, tempDir } from './helpers.js'

/** A model that answers from a list: a response, or an error to throw, or `hang` (until the call's abort). */
function listModel(answers: (Awaited<ReturnType<ModelProvider['generate']>> | Error | 'hang')[]): ModelProvider {
  let n = 0
  return {
    id: 'list',
    async generate(_request, { signal }) {
      const answer = answers[n++]
      if (answer === undefined) throw new Error('no answer left')
      if (answer instanceof Error) throw answer
      if (answer === 'hang') return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)))
      return answer
    },
  }
}

function observed(model: ModelProvider, record: (entry: string) => void) {
  return [
    plugin('model', (kernel) => kernel.provide('model', model)),
    plugin('observer', (kernel) => {
      kernel.registerTool(echoTool((text) => record(`tool ${text}`)))
      kernel.hooks.modelRequest.tap('observer', (request, { requestId }) => {
        record(`request ${requestId}`)
        return request
      })
      kernel.hooks.modelResponse.tapPromise('observer', async ({ requestId, outcome, step }) => {
        record(`response ${requestId} step ${step} ${JSON.stringify(outcome)}`)
      })
    }),
  ]
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('model/response', () => {
  it('follows each model call with its request id, usage and response id, before the tool calls run', async () => {
    const log: string[] = []
    const model = listModel([
      {
        content: [{ type: 'tool_call', id: 'c1', name: 'echo', input: { text: 'hi' } }],
        usage: { inputTokens: 4, outputTokens: 2 },
        id: 'resp_1',
      },
      { content: [{ type: 'text', text: 'done' }] },
    ])
    const kernel = createKernel(
      observed(model, (entry) => log.push(entry)),
      { cwd: tempDir() },
    )
    const session = await kernel.startSession()
    expect((await session.run('go')).status).toBe('completed')
    const [first, second] = log.filter((entry) => entry.startsWith('request')).map((entry) => entry.split(' ')[1]!)
    expect(first).toMatch(uuid)
    expect(second).not.toBe(first)
    expect(log).toEqual([
      `request ${first}`,
      `response ${first} step 1 {"status":"completed","usage":{"inputTokens":4,"outputTokens":2},"responseId":"resp_1"}`,
      'tool hi',
      `request ${second}`,
      `response ${second} step 2 {"status":"completed"}`,
    ])
    await kernel.dispose()
  })

  it('says `failed` with the error when the call failed, then the turn fails with that error', async () => {
    const log: string[] = []
    const kernel = createKernel(
      observed(listModel([new ModelError('bad request', { retryable: false })]), (entry) => log.push(entry)),
      {
        cwd: tempDir(),
      },
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'failed', error: expect.stringContaining('bad request') })
    expect(log[1]).toMatch(/^response \S+ step 1 \{"status":"failed","error":".*bad request.*"\}$/)
    await kernel.dispose()
  })

  it('says `cancelled` when the turn was interrupted during the call; a tap that throws then does not hide the interrupt', async () => {
    const outcomes: ModelResponsePayload['outcome'][] = []
    const kernel = createKernel(
      [
        plugin('model', (kernel) => kernel.provide('model', listModel(['hang']))),
        plugin('observer', (kernel) => {
          kernel.hooks.modelRequest.tap('interrupt', (request, { session }) => {
            setImmediate(() => session.interrupt('stop'))
            return request
          })
          kernel.hooks.modelResponse.tapPromise('observer', async ({ outcome, signal }) => {
            outcomes.push(outcome)
            expect(signal.aborted).toBe(true)
            throw new Error('observer broke')
          })
        }),
      ],
      { cwd: tempDir() },
    )
    const session = await kernel.startSession()
    expect((await session.run('go')).status).toBe('interrupted')
    expect(outcomes).toEqual([{ status: 'cancelled' }])
    await kernel.dispose()
  })
})
