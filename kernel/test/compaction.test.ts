import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  COMPACTION_PROMPT,
  type CompactPayload,
  compaction,
  contextMessage,
  createKernel,
  defaultCompactor,
  defineTool,
  type Message,
  type ModelProvider,
  type ModelRequest,
  type SessionEvent,
  textOf,
} from '../src/index.js'
import { plugin, tempDir } from './helpers.js'

/**
 * Answers a summary request (its last message is the compaction prompt) with `SUMMARY of N messages`; otherwise calls
 * the tool `fill` while the last user text asks for `calls:N` more (none after a summary), then answers `reply to <text>`.
 */
function model(requests: ModelRequest[]): ModelProvider {
  return {
    id: 'compacting',
    async generate(request) {
      requests.push(structuredClone(request))
      const last = request.messages.at(-1) as Message
      if (textOf(last).startsWith(COMPACTION_PROMPT.slice(0, 40)))
        return {
          content: [{ type: 'text', text: `SUMMARY of ${request.messages.length - 1} messages` }],
          usage: { inputTokens: 10, outputTokens: 5 },
        }
      const prompt = textOf([...request.messages].reverse().find((message) => message.role === 'user') as Message)
      // After a summary the work is done: the model answers.
      const wanted = prompt.startsWith('This session continues') ? 0 : Number(/calls:(\d+)/.exec(prompt)?.[1] ?? 0)
      const done = request.messages.filter((message) => message.role === 'tool').length
      if (done < wanted) return { content: [{ type: 'tool_call', id: `call_${done}`, name: 'fill', input: {} }] }
      return { content: [{ type: 'text', text: `reply to ${prompt}` }] }
    },
  }
}

/** A tool whose result is 2,000 characters. */
const fillTool = defineTool({
  name: 'fill',
  description: 'Fills the context.',
  inputSchema: z.object({}),
  execute: async () => ({ output: 'x'.repeat(2000), isError: false }),
})

function setup(options: { requests?: ModelRequest[]; extra?: Parameters<typeof createKernel>[0]; cwd?: string } = {}) {
  const requests = options.requests ?? []
  const seen: { pre: CompactPayload[]; post: CompactPayload[]; starts: string[] } = { pre: [], post: [], starts: [] }
  const base = plugin('base', (kernel) => {
    kernel.provide('model', model(requests))
    kernel.registerTool(fillTool)
    kernel.hooks.preCompact.tap('probe', (decision, payload) => {
      seen.pre.push(payload)
      return decision
    })
    kernel.hooks.postCompact.tap('probe', (payload) => {
      seen.post.push(payload)
    })
    kernel.hooks.sessionStart.tap('probe', ({ source }) => {
      seen.starts.push(source)
    })
  })
  const kernel = createKernel([base, ...(options.extra ?? [])], { cwd: options.cwd ?? tempDir() })
  return { kernel, requests, seen }
}

const events = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEvent)
const shape = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${textOf(message).slice(0, 40)}`)

describe('session.compact()', () => {
  it('replaces the conversation with a summary, fires pre/post-compact and session-start(compact), and survives a resume', async () => {
    const cwd = tempDir()
    const { kernel, requests, seen } = setup({ cwd })
    const session = await kernel.startSession({ id: 'compacted' })
    await session.run('first')
    await session.run('second')
    const result = await session.compact({ instructions: 'keep the names' })
    expect(result).toMatchObject({ status: 'compacted', kept: 2, summary: 'SUMMARY of 4 messages' })
    // The summary request: the whole conversation, then the prompt with the user's instructions.
    const summaryRequest = requests.at(-1) as ModelRequest
    expect(textOf(summaryRequest.messages.at(-1) as Message)).toContain('The user asks that the summary keep: keep the names')
    expect(shape(session.messages)).toEqual(['user:This session continues a conversation th', 'user:second', 'assistant:reply to second'])
    expect(seen.pre.map((payload) => [payload.trigger, payload.instructions])).toEqual([['manual', 'keep the names']])
    expect(seen.post.map((payload) => payload.summary)).toEqual(['SUMMARY of 4 messages'])
    expect(seen.starts).toEqual(['startup', 'compact'])

    await session.run('third')
    expect(shape((requests.at(-1) as ModelRequest).messages)).toEqual([
      'user:This session continues a conversation th',
      'user:second',
      'assistant:reply to second',
      'user:third',
    ])
    const logged = events(session.transcriptPath).find((event) => event.type === 'compaction')
    expect(logged).toMatchObject({ trigger: 'manual', summary: 'SUMMARY of 4 messages', kept: 2 })
    await session.end()
    await kernel.dispose()

    const again = setup({ cwd })
    const resumed = await again.kernel.resumeSession('compacted')
    expect(shape(resumed.messages)).toEqual(shape(session.messages))
    await again.kernel.dispose()
  })

  it('a pre-compact halt leaves the conversation as it was', async () => {
    const stopper = plugin('stopper', (kernel) => kernel.hooks.preCompact.tap('stopper', () => ({ kind: 'halt', reason: 'not now' })))
    const { kernel, seen } = setup({ extra: [stopper] })
    const session = await kernel.startSession()
    await session.run('first')
    const before = shape(session.messages)
    expect(await session.compact()).toEqual({ status: 'halted', reason: 'not now' })
    expect(shape(session.messages)).toEqual(before)
    expect(seen.post).toEqual([])
    expect(events(session.transcriptPath).some((event) => event.type === 'notice' && event.text === 'compaction halted: not now')).toBe(
      true,
    )
    await kernel.dispose()
  })

  it('a summary the model cannot write is an error notice; nothing is replaced', async () => {
    const failing = plugin('failing', (kernel) =>
      kernel.provide('compactor', {
        ...defaultCompactor(),
        summarize: async () => {
          throw new Error('model unavailable')
        },
      }),
    )
    const { kernel } = setup({ extra: [failing] })
    const session = await kernel.startSession()
    await session.run('first')
    const before = shape(session.messages)
    const result = await session.compact()
    expect(result).toEqual({ status: 'failed', error: 'compaction failed, the conversation is kept as it was: model unavailable' })
    expect(shape(session.messages)).toEqual(before)
    await kernel.dispose()
  })

  it('never keeps a tool result whose call was summarized away', async () => {
    const keepsTooLittle = plugin('keeps', (kernel) => kernel.provide('compactor', { ...defaultCompactor(), keep: () => 2 }))
    const { kernel } = setup({ extra: [keepsTooLittle] })
    const session = await kernel.startSession()
    await session.run('go calls:1')
    // user, assistant(call), tool, assistant: the last two would start at the tool result.
    expect(await session.compact()).toMatchObject({ status: 'compacted', kept: 1 })
    expect(shape(session.messages)).toEqual(['user:This session continues a conversation th', 'assistant:reply to go calls:1'])
    await kernel.dispose()
  })
})

describe('what stays beside the summary (compaction({ retain }))', () => {
  it("'user-messages' (Codex's shape): the user's messages, newest first within keepTokens, before the summary; a resume rebuilds them from the log", async () => {
    const cwd = tempDir()
    const retain = () => compaction({ retain: 'user-messages', keepTokens: 50 })
    const { kernel, requests } = setup({ cwd, extra: [retain()] })
    const session = await kernel.startSession({ id: 'codex-shape' })
    const long = `long ${'y'.repeat(400)}`
    await session.run('oldest')
    await session.run(long)
    await session.run('go calls:1')
    session.inject(contextMessage('probe', 'a context, not the user'))
    await session.run('last')
    expect(await session.compact()).toMatchObject({ status: 'compacted', kept: 0 })
    // 'last' and 'go calls:1' fit (3 tokens each); the long one is cut in the middle to what is left; 'oldest' is dropped.
    const [cut, ...rest] = shape(session.messages)
    expect(cut).toBe('user:long yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy')
    expect(rest).toEqual(['user:go calls:1', 'user:last', 'user:This session continues a conversation th'])
    const cutText = textOf(session.messages[0] as Message)
    expect(cutText).toMatch(/^long y+…\d+ tokens truncated…y+$/)
    expect(cutText.length).toBeLessThanOrEqual((50 - 1 - 2.5) * 4)
    const logged = events(session.transcriptPath).find((event) => event.type === 'compaction')
    expect(logged).toMatchObject({ kept: 0, prefix: [{ role: 'user' }, { role: 'user' }, { role: 'user' }] })

    // A second compaction keeps the user's messages again, never the earlier summary.
    await session.run('after')
    await session.compact()
    expect(shape(session.messages).slice(-3)).toEqual(['user:last', 'user:after', 'user:This session continues a conversation th'])
    expect(shape(session.messages).filter((line) => line.startsWith('user:This session'))).toHaveLength(1)
    expect(textOf(session.messages[0] as Message).length).toBeLessThanOrEqual((50 - 1 - 1.25 - 2.5) * 4)
    await session.run('next')
    expect(shape((requests.at(-1) as ModelRequest).messages)).toEqual([...shape(session.messages).slice(0, -2), 'user:next'])
    await session.end()
    await kernel.dispose()

    const again = setup({ cwd, extra: [retain()] })
    const resumed = await again.kernel.resumeSession('codex-shape')
    expect(resumed.messages).toEqual(session.messages)
    await again.kernel.dispose()
  })

  it("'none': the summary alone; a bad retain is refused naming it", async () => {
    const { kernel } = setup({ extra: [compaction({ retain: 'none' })] })
    const session = await kernel.startSession()
    await session.run('first')
    await session.run('second')
    expect(await session.compact()).toMatchObject({ status: 'compacted', kept: 0 })
    expect(shape(session.messages)).toEqual(['user:This session continues a conversation th'])
    expect(events(session.transcriptPath).find((event) => event.type === 'compaction')).not.toHaveProperty('prefix')
    await kernel.dispose()
    // @ts-expect-error not a mode
    expect(() => compaction({ retain: 'all' })).toThrow('compaction: retain must be one of tail, user-messages, none, got all')
  })
})

describe('compaction(): automatic, mid-turn', () => {
  it('compacts before a request that would pass the budget, and the turn goes on from the summary', async () => {
    const { kernel, requests, seen } = setup({ extra: [compaction({ contextWindow: 1500, threshold: 0.8, keepTokens: 100 })] })
    const session = await kernel.startSession()
    const result = await session.run('work calls:3')
    expect(result.status).toBe('completed')
    const compactions = events(session.transcriptPath).filter((event) => event.type === 'compaction')
    expect(compactions.length).toBeGreaterThanOrEqual(1)
    expect(compactions[0]).toMatchObject({ trigger: 'auto', turnId: expect.any(String) })
    expect(seen.pre[0]).toMatchObject({ trigger: 'auto', turn: { id: compactions[0]?.type === 'compaction' ? compactions[0].turnId : '' } })
    // Every request the turn sent after its first compaction starts from a summary and stays under the budget's threshold
    // by the compactor's own estimate.
    const after = requests.filter((request) => textOf(request.messages[0] as Message).startsWith('This session continues'))
    expect(after.length).toBeGreaterThan(0)
    expect(result.lastAssistantMessage).toBe(
      'reply to This session continues a conversation that was summarized to fit the context window. The summary:\n\nSUMMARY of 7 messages',
    )
    await kernel.dispose()
  })

  it("what session-start (compact) taps inject goes into the turn's next request, right after the summary", async () => {
    const injector = plugin('injector', (kernel) =>
      kernel.hooks.sessionStart.tap('injector', ({ session, source }) => {
        if (source === 'compact') session.inject(contextMessage('injector', 'CONTEXT AFTER COMPACTION'))
      }),
    )
    const { kernel, requests } = setup({ extra: [compaction({ contextWindow: 1500, threshold: 0.8, keepTokens: 100 }), injector] })
    const session = await kernel.startSession()
    await session.run('work calls:3')
    const summaryAt = requests.findIndex((request) => textOf(request.messages.at(-1) as Message).startsWith(COMPACTION_PROMPT.slice(0, 40)))
    expect(summaryAt).toBeGreaterThan(0)
    expect(shape((requests[summaryAt + 1] as ModelRequest).messages)).toEqual([
      'user:This session continues a conversation th',
      'developer:CONTEXT AFTER COMPACTION',
    ])
    await kernel.dispose()
  })

  it('is off without the plugin, and refuses bad options naming them', async () => {
    const { kernel } = setup()
    const session = await kernel.startSession()
    await session.run('work calls:3')
    expect(events(session.transcriptPath).some((event) => event.type === 'compaction')).toBe(false)
    await kernel.dispose()
    expect(() => compaction({ threshold: 2 })).toThrow('compaction: threshold must be a number > 0 and <= 1, got 2')
    expect(() => compaction({ contextWindow: 0 })).toThrow('compaction: contextWindow must be a number > 0, got 0')
  })
})
