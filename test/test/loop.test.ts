import { contextMessage, type Message, ModelError, type SessionEvent, STAGE_GUARD, userMessage } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { flatten, harnessPerTest, plugin, readEvents, testTools } from './helpers.js'

const setup = harnessPerTest()

describe('a turn', () => {
  it('runs model → tool → model and reports what was recorded', async () => {
    const { kernel, model } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'hi' } }] }, { text: 'done' }], [testTools])
    const session = await kernel.startSession()
    const result = await session.run('hello')
    expect(result.status).toBe('completed')
    expect(result.lastAssistantMessage).toBe('done')
    expect(flatten(result.messages)).toEqual(['user:hello', 'assistant:call:echo', 'tool:result:hi', 'assistant:done'])
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:hello', 'assistant:call:echo', 'tool:result:hi'])
    expect(model.requests[0]!.tools.map((tool) => tool.name)).toEqual(['echo', 'slow'])
    const types = readEvents(session.transcriptPath).map((event) => event.type)
    expect(types).toEqual([
      'session/start',
      'turn/start',
      'step/start',
      'message',
      'message',
      'tool/call',
      'tool/result',
      'step/start',
      'message',
      'turn/end',
    ])
  })

  it('a rejected first step ends the turn blocked with no input recorded and no model call', async () => {
    const policy = plugin('policy', (kernel) => {
      kernel.hooks.preStep.tapPromise('no-secrets', async (decision, { input }) => {
        const text = input.map((message) => message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')).join('')
        return text.includes('secret')
          ? { kind: 'reject', reason: 'prompt mentions a secret', context: [contextMessage('policy', 'a prompt was blocked')] }
          : decision
      })
    })
    const { kernel, model } = setup([{ text: 'never' }], [policy])
    const session = await kernel.startSession()
    const result = await session.run('tell me the secret')
    expect(result.status).toBe('blocked')
    expect(result.reason).toBe('prompt mentions a secret')
    expect(model.calls).toBe(0)
    expect(session.messages.filter((message) => message.role === 'user')).toEqual([])
    expect(flatten(result.messages)).toEqual(['developer:a prompt was blocked'])
  })

  it('halt from agent/pre-step ends the turn before any model call; the reason is user-only', async () => {
    const notices: string[] = []
    const policy = plugin('policy', (kernel) => {
      kernel.hooks.preStep.tap('halt', (decision) =>
        decision.kind === 'enter' ? { ...decision, halt: { reason: 'maintenance window' } } : decision,
      )
      kernel.hooks.notice.tap('collect', ({ text }) => notices.push(text))
    })
    const { kernel, model } = setup([{ text: 'never' }], [policy])
    const session = await kernel.startSession()
    const result = await session.run('hello')
    expect(result).toMatchObject({ status: 'halted', reason: 'maintenance window' })
    expect(model.calls).toBe(0)
    expect(notices).toContain('turn halted: maintenance window')
  })

  it('model/request decides the exact request sent', async () => {
    const rewrite = plugin('rewrite', (kernel) => {
      kernel.hooks.modelRequest.tap('system', (request) => ({ ...request, system: 'be terse', tools: [] }))
    })
    const { kernel, model } = setup([{ text: 'ok' }], [rewrite, testTools], { system: 'original' })
    const session = await kernel.startSession()
    await session.run('hi')
    expect(model.requests[0]).toMatchObject({ system: 'be terse', tools: [] })
  })

  it('inject() adds context before the next step input without starting a turn', async () => {
    const { kernel, model } = setup([{ text: 'ok' }])
    const session = await kernel.startSession()
    session.inject(contextMessage('ide', 'open file: a.ts'))
    expect(model.calls).toBe(0)
    await session.run('hi')
    expect(flatten(model.requests[0]!.messages)).toEqual(['developer:open file: a.ts', 'user:hi'])
  })

  it('run() accepts messages and serializes concurrent turns', async () => {
    const { kernel, model } = setup([{ text: 'one' }, { text: 'two' }])
    const session = await kernel.startSession()
    const [a, b] = await Promise.all([session.run([userMessage('first')]), session.run('second')])
    expect([a.lastAssistantMessage, b.lastAssistantMessage]).toEqual(['one', 'two'])
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:first', 'assistant:one', 'user:second'])
  })
})

describe('tools', () => {
  it('deny: the tool does not run, the model sees the reason; a guard veto cannot be loosened later', async () => {
    let laterCalled = false
    const guard = plugin('guard', (kernel) => {
      kernel.hooks.toolPreExecute.tap({ name: 'deny-echo', stage: STAGE_GUARD }, (decision, { call }) =>
        call.name === 'echo' ? { kind: 'deny', reason: 'echo is not allowed here' } : decision,
      )
      kernel.hooks.toolPreExecute.tap('loosen', () => {
        laterCalled = true
        return { kind: 'allow' }
      })
    })
    const { kernel, model } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'ok' }], [testTools, guard])
    const session = await kernel.startSession()
    await session.run('go')
    expect(laterCalled).toBe(false)
    expect(model.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({
      type: 'tool_result',
      output: 'echo is not allowed here',
      isError: true,
    })
    const call = readEvents(session.transcriptPath).find((event) => event.type === 'tool/call')
    expect(call).toMatchObject({ decision: 'deny' })
  })

  it('allow with rewritten input runs the rewritten input, and post-execute sees what ran', async () => {
    const seen: unknown[] = []
    const rewrite = plugin('rewrite', (kernel) => {
      kernel.hooks.toolPostExecute.tap('see', (decision, { call }) => {
        seen.push(call.input)
        return decision
      })
      kernel.hooks.toolPreExecute.tap('upper', (_decision, { call }) => ({
        kind: 'allow',
        input: { text: String((call.input as { text: string }).text).toUpperCase() },
      }))
    })
    const { kernel } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'quiet' } }] }, { text: 'ok' }], [testTools, rewrite])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(flatten(result.messages)).toContain('tool:result:QUIET')
    expect(seen).toEqual([{ text: 'QUIET' }])
  })

  it('ask goes to tools/permission-request, then to the approvals service when undecided', async () => {
    const asked: string[] = []
    const policy = plugin('policy', (kernel) => {
      kernel.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask', reason: 'writes' }))
      kernel.hooks.toolPermissionRequest.tap('allow-a', (decision, { call }) =>
        (call.input as { text: string }).text === 'a' ? { kind: 'allow' } : decision,
      )
      kernel.provide('approvals', {
        async request({ call }: { call: { input: unknown } }) {
          asked.push((call.input as { text: string }).text)
          return { kind: 'deny', reason: 'user said no' }
        },
      })
    })
    const { kernel } = setup(
      [
        {
          tool_calls: [
            { name: 'echo', input: { text: 'a' } },
            { name: 'echo', input: { text: 'b' } },
          ],
        },
        { text: 'ok' },
      ],
      [testTools, policy],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(flatten(result.messages)).toEqual([
      'user:go',
      'assistant:call:echo|call:echo',
      'tool:result:a',
      'tool:result:user said no',
      'assistant:ok',
    ])
    expect(asked).toEqual(['b'])
  })

  it('without an approver an ask is denied with a clear reason', async () => {
    const policy = plugin('policy', (kernel) => kernel.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask' })))
    const { kernel } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'a' } }] }, { text: 'ok' }], [testTools, policy])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(flatten(result.messages)[2]).toBe(
      'tool:result:The call to echo needs approval, and no approver is configured, so it was not run.',
    )
  })

  it('post-execute replaces output or blocks with feedback; contexts come after all results of the step', async () => {
    const post = plugin('post', (kernel) => {
      kernel.hooks.toolPostExecute.tap('edit', (decision, { result }) => {
        if (result.output === 'a') return { kind: 'accept', output: 'A!', context: [contextMessage('post', 'ctx-a')] }
        if (result.output === 'b') return { kind: 'block', feedback: 'b was blocked', context: [contextMessage('post', 'ctx-b')] }
        return decision
      })
    })
    const { kernel } = setup(
      [
        {
          tool_calls: [
            { name: 'echo', input: { text: 'a' } },
            { name: 'echo', input: { text: 'b' } },
          ],
        },
        { text: 'ok' },
      ],
      [testTools, post],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(flatten(result.messages)).toEqual([
      'user:go',
      'assistant:call:echo|call:echo',
      'tool:result:A!',
      'tool:result:b was blocked',
      'developer:ctx-a',
      'developer:ctx-b',
      'assistant:ok',
    ])
  })

  it('parallel calls run together and are recorded in the model order', async () => {
    const started: string[] = []
    const observe = plugin('observe', (kernel) => {
      kernel.hooks.toolPreExecute.tap('start', (decision, { call }) => {
        started.push((call.input as { text: string }).text)
        return decision
      })
    })
    const { kernel } = setup(
      [
        {
          tool_calls: [
            // The first finishes only after the second: they run together.
            { name: 'slow', input: { text: 'first', after: 'second' } },
            { name: 'slow', input: { text: 'second' } },
          ],
        },
        { text: 'ok' },
      ],
      [testTools, observe],
    )
    const session = await kernel.startSession()
    const order: string[] = []
    const result = await session.run('go')
    for (const message of result.messages) for (const block of message.content) if (block.type === 'tool_result') order.push(block.output)
    expect(order).toEqual(['first', 'second'])
    expect(started).toEqual(['first', 'second'])
    const results = readEvents(session.transcriptPath).filter((event) => event.type === 'tool/result')
    expect(results.map((event) => (event as { output: string }).output)).toEqual(['first', 'second'])
  })

  it('unknown tools and invalid input become error results the model sees', async () => {
    const { kernel } = setup(
      [
        {
          tool_calls: [
            { name: 'nope', input: {} },
            { name: 'echo', input: { text: 3 } },
          ],
        },
        { text: 'ok' },
      ],
      [testTools],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    const outputs = result.messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_result')
    expect(outputs[0]).toMatchObject({ isError: true, output: 'Unknown tool "nope". Available tools: echo, slow.' })
    expect(outputs[1]).toMatchObject({ isError: true })
    expect((outputs[1] as { output: string }).output).toMatch(/^Invalid input for tool "echo": text: /)
  })
})

describe('turn stopping', () => {
  it('continue records messages and runs another step with stopHookActive', async () => {
    const seen: boolean[] = []
    const stop = plugin('stop', (kernel) => {
      kernel.hooks.turnStopping.tap('once', (decision, { stopHookActive }) => {
        seen.push(stopHookActive)
        return stopHookActive ? decision : { kind: 'continue', messages: [userMessage('keep going')] }
      })
    })
    const { kernel, model } = setup([{ text: 'first' }, { text: 'second' }], [stop])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(seen).toEqual([false, true])
    expect(result.status).toBe('completed')
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:go', 'assistant:first', 'user:keep going'])
    expect(result.lastAssistantMessage).toBe('second')
  })

  it('maxStopContinuations forces a stop with a notice', async () => {
    const stop = plugin('stop', (kernel) => {
      kernel.hooks.turnStopping.tap('always', () => ({ kind: 'continue', messages: [userMessage('again')] }))
    })
    const { kernel, model } = setup(
      Array.from({ length: 5 }, (_, index) => ({ text: `reply ${index}` })),
      [stop],
      { maxStopContinuations: 2 },
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(model.calls).toBe(3)
    const notices = readEvents(session.transcriptPath).filter((event) => event.type === 'notice')
    expect(notices.map((event) => (event as { text: string }).text)).toContain(
      'turn stopped after 2 consecutive continuations by agent/turn-stopping (maxStopContinuations 2)',
    )
  })
})

describe('failures are attributed', () => {
  it('a throwing tap fails the turn naming its plugin', async () => {
    const broken = plugin('broken-policy', (kernel) => {
      kernel.hooks.toolPreExecute.tapPromise('explode', async () => {
        throw new Error('boom')
      })
    })
    const { kernel } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'a' } }] }], [testTools, broken])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('failed')
    expect(result.error).toBe('plugin "broken-policy" (tap "explode") failed in tools/pre-execute: boom')
    const end = readEvents(session.transcriptPath).find((event) => event.type === 'turn/end')
    expect(end).toMatchObject({ status: 'failed', error: result.error })
  })

  it('a malformed decision fails the step naming the plugin', async () => {
    const broken = plugin('sloppy', (kernel) => {
      kernel.hooks.turnStopping.tap('sloppy', () => ({ kind: 'continue' }) as never)
    })
    const { kernel } = setup([{ text: 'x' }], [broken])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^plugin "sloppy" failed in agent\/turn-stopping: returned an invalid value \(/)
  })
})

describe('decisions that end a turn or rewrite a call at permission time', () => {
  it('a deny with halt answers the call with the reason and ends the turn after the step (a deferred call)', async () => {
    const defer = plugin('defer', (kernel) => {
      kernel.hooks.toolPreExecute.tap('defer', () => ({ kind: 'deny', reason: 'deferred for review', halt: { reason: 'tool_deferred' } }))
    })
    const { kernel, model } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'a' } }] }, { text: 'never' }], [testTools, defer])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'halted', reason: 'tool_deferred' })
    expect(flatten(result.messages)).toEqual(['user:go', 'assistant:call:echo', 'tool:result:deferred for review'])
    expect(model.calls).toBe(1)
    expect(readEvents(session.transcriptPath).find((event) => event.type === 'tool/call')).toMatchObject({ decision: 'deny-halt' })
  })

  it('a permission allow with input runs the call with that input', async () => {
    const ask = plugin('ask-and-rewrite', (kernel) => {
      kernel.hooks.toolPreExecute.tap('ask', () => ({ kind: 'ask', reason: 'check' }))
      kernel.hooks.toolPermissionRequest.tap('rewrite', () => ({ kind: 'allow', input: { text: 'rewritten' } }))
    })
    const { kernel } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'original' } }] }, { text: 'done' }], [testTools, ask])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(flatten(result.messages)).toContain('tool:result:rewritten')
    expect(readEvents(session.transcriptPath).find((event) => event.type === 'tool/call')).toMatchObject({
      decision: 'allow-rewritten',
      input: { text: 'rewritten' },
    })
  })
})

describe('model/delta', () => {
  it('streams the model text to observers while the step runs; the response is what is recorded', async () => {
    const deltas: { step: number; text: string }[] = []
    const watch = plugin('watch-deltas', (kernel) => {
      kernel.hooks.modelDelta.tap('watch', ({ step, text }) => {
        deltas.push({ step, text })
      })
    })
    const { kernel } = setup([{ text: 'Hello there, friend.' }], [watch])
    const session = await kernel.startSession()
    const result = await session.run('hi')
    expect(result.lastAssistantMessage).toBe('Hello there, friend.')
    expect(deltas).toEqual([
      { step: 1, text: 'Hello ' },
      { step: 1, text: 'there, ' },
      { step: 1, text: 'friend.' },
    ])
  })

  it('an observer that throws does not break the turn', async () => {
    const broken = plugin('broken-delta', (kernel) => {
      kernel.hooks.modelDelta.tap('explode', () => {
        throw new Error('boom')
      })
    })
    const { kernel } = setup([{ text: 'still fine' }], [broken])
    const session = await kernel.startSession()
    expect(await session.run('hi')).toMatchObject({ status: 'completed', lastAssistantMessage: 'still fine' })
  })
})

describe('model retries', () => {
  it('retries retryable errors without re-running the boundary or pre-step', async () => {
    let preSteps = 0
    const count = plugin('count', (kernel) => {
      kernel.hooks.preStep.tap('count', (decision) => {
        preSteps++
        return decision
      })
    })
    const { kernel, model } = setup([{ error: { message: 'overloaded', retryable: true, status: 529 } }, { text: 'ok' }], [count])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(preSteps).toBe(1)
    expect(model.calls).toBe(2)
    expect(model.requests[0]).toEqual(model.requests[1])
    const events = readEvents(session.transcriptPath)
    expect(events.filter((event) => event.type === 'step/start')).toHaveLength(1)
    expect(events.some((event) => event.type === 'notice' && event.text.includes('retrying'))).toBe(true)
  })

  it("waits at least the server's retry-after, capped by maxRetryAfterMs", async () => {
    const failing = plugin('retry-after-model', (kernel) => {
      let calls = 0
      kernel.provide('model', {
        id: 'retry-after',
        async generate() {
          calls++
          if (calls === 1) throw new ModelError('rate limited', { retryable: true, status: 429, retryAfterMs: 40 })
          if (calls === 2) throw new ModelError('rate limited', { retryable: true, status: 429, retryAfterMs: 90_000 })
          return { content: [{ type: 'text', text: 'ok' }] }
        },
      })
    })
    const { kernel } = setup([], [failing], { modelRetry: { initialDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 60 } })
    const session = await kernel.startSession()
    expect(await session.run('go')).toMatchObject({ status: 'completed' })
    const notices = readEvents(session.transcriptPath).flatMap((event) => (event.type === 'notice' ? [event.text] : []))
    expect(notices).toEqual([
      'model retry-after failed (rate limited); retrying in 40 ms (attempt 2 of 4)',
      'model retry-after failed (rate limited); retrying in 60 ms (attempt 3 of 4)',
    ])
  })

  it("records the provider's token usage with the assistant message, in meta (never sent to a model)", async () => {
    let seenMeta: unknown
    const metered = plugin('metered-model', (kernel) => {
      let calls = 0
      kernel.provide('model', {
        id: 'metered',
        async generate(request) {
          calls++
          if (calls === 2) seenMeta = request.messages.find((message) => message.role === 'assistant')?.meta
          return {
            content: [{ type: 'text', text: `reply ${calls}` }],
            stopReason: 'end_turn',
            usage: { inputTokens: 12, outputTokens: 3 },
          }
        },
      })
    })
    const { kernel } = setup([], [metered])
    const session = await kernel.startSession()
    await session.run('one')
    await session.run('two')
    const assistants = readEvents(session.transcriptPath).flatMap((event) =>
      event.type === 'message' && event.message.role === 'assistant' ? [event.message.meta] : [],
    )
    expect(assistants).toEqual([
      { usage: { inputTokens: 12, outputTokens: 3 }, stopReason: 'end_turn' },
      { usage: { inputTokens: 12, outputTokens: 3 }, stopReason: 'end_turn' },
    ])
    // The provider gets the message back with its meta; providers never send meta to the API.
    expect(seenMeta).toEqual({ usage: { inputTokens: 12, outputTokens: 3 }, stopReason: 'end_turn' })
  })

  it('a non-retryable error, or running out of attempts, fails the turn', async () => {
    const { kernel } = setup(
      [
        { error: { message: 'bad key', retryable: false, status: 401 } },
        { error: { message: 'busy', retryable: true } },
        { error: { message: 'busy', retryable: true } },
      ],
      [],
      { modelRetry: { maxAttempts: 2, initialDelayMs: 1 } },
    )
    const session = await kernel.startSession()
    expect(await session.run('a')).toMatchObject({ status: 'failed', error: 'bad key' })
    expect(await session.run('b')).toMatchObject({ status: 'failed', error: 'busy' })
  })
})

describe('sessions', () => {
  it('resume rebuilds messages from the log and fires session-start with resume', async () => {
    const sources: string[] = []
    const observe = plugin('observe', (kernel) => {
      kernel.hooks.sessionStart.tapPromise('source', async ({ source }) => {
        sources.push(source)
      })
    })
    const { kernel, model, dir } = setup([{ text: 'one' }, { text: 'two' }], [observe])
    const session = await kernel.startSession()
    await session.run('first')
    await session.end()
    const resumed = await kernel.resumeSession(session.id)
    expect(resumed.cwd).toBe(dir)
    expect(flatten(resumed.messages)).toEqual(['user:first', 'assistant:one'])
    await resumed.run('second')
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:first', 'assistant:one', 'user:second'])
    expect(sources).toEqual(['startup', 'resume'])
    const seqs = readEvents(resumed.transcriptPath).map((event: SessionEvent) => event.seq)
    expect(seqs).toEqual(seqs.map((_, index) => index + 1))
  })

  it('session-start halt ends the next turn before any model call', async () => {
    const gate = plugin('gate', (kernel) => {
      kernel.hooks.sessionStart.tapPromise('gate', async ({ halt }) => halt({ reason: 'not trusted' }))
    })
    const { kernel, model } = setup([{ text: 'x' }], [gate])
    const session = await kernel.startSession()
    expect(await session.run('hi')).toMatchObject({ status: 'halted', reason: 'not trusted' })
    expect(model.calls).toBe(0)
    expect(await session.run('again')).toMatchObject({ status: 'completed' })
  })

  it('session-end fires once with the reason and the log ends with session/end', async () => {
    const reasons: string[] = []
    const observe = plugin('observe', (kernel) => {
      kernel.hooks.sessionEnd.tapPromise('end', async ({ reason }) => {
        reasons.push(reason)
      })
    })
    const { kernel } = setup([], [observe])
    const session = await kernel.startSession()
    await session.end('clear')
    await session.end('clear')
    expect(reasons).toEqual(['clear'])
    expect(readEvents(session.transcriptPath).at(-1)).toMatchObject({ type: 'session/end', reason: 'clear' })
    await expect(session.run('x')).rejects.toThrow(/has ended/)
  })

  it('dialects record hook runs as durable hook/run events that observers see', async () => {
    const seen: string[] = []
    const observe = plugin('observe', (kernel) => kernel.hooks.sessionEvent.tap('types', ({ event }) => seen.push(event.type)))
    const { kernel } = setup([], [observe])
    const session = await kernel.startSession()
    session.recordHookRun({
      dialect: 'codex',
      id: 'pre-tool-use:0:/home/u/.codex/hooks.json:call_0',
      event: 'PreToolUse',
      status: 'blocked',
      durationMs: 12,
      exitCode: 2,
      entries: [{ kind: 'feedback', text: 'no' }],
    })
    expect(readEvents(session.transcriptPath).at(-1)).toMatchObject({
      type: 'hook/run',
      dialect: 'codex',
      event: 'PreToolUse',
      status: 'blocked',
      exitCode: 2,
      entries: [{ kind: 'feedback', text: 'no' }],
    })
    expect(seen).toEqual(['session/start', 'hook/run'])
  })

  it('messages keep their sources in the log', async () => {
    const { kernel } = setup([{ text: 'ok' }])
    const session = await kernel.startSession()
    session.inject(contextMessage('ide', 'ctx'))
    await session.run('hi')
    const messages = readEvents(session.transcriptPath)
      .filter((event) => event.type === 'message')
      .map((event) => (event as { message: Message }).message.source)
    expect(messages).toEqual([{ kind: 'plugin', plugin: 'ide' }, { kind: 'user' }, { kind: 'model' }])
  })
})
