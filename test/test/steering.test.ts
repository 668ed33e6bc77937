import { readFileSync } from 'node:fs'
import {
  type Boundary,
  defineTool,
  type InputItem,
  type Message,
  type Session,
  SteeringCancelledError,
  type SteerOutcome,
  textOf,
} from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { flatten, harnessPerTest, plugin, readEvents, settled, testTools, waitUntil } from './helpers.js'
import { RecordingSource } from './steering-sources.js'

const setup = harnessPerTest()
let activeSession: Session | undefined

function hostSource(answer: (boundary: Boundary) => InputItem[] | undefined, onAccept?: ConstructorParameters<typeof RecordingSource>[1]) {
  const sources: RecordingSource[] = []
  const provider = plugin('host', (kernel) => {
    kernel.provide('steering', () => {
      const source = new RecordingSource(answer, onAccept)
      sources.push(source)
      return source
    })
  })
  return { provider, source: () => sources[0]! }
}

const text = (value: string, id?: string): InputItem =>
  id === undefined ? { type: 'text', text: value } : { type: 'text', text: value, id }

describe('host steering at boundaries', () => {
  it('claims once per boundary (never per retry), records before the request, and final-boundary input continues the same turn', async () => {
    const host = hostSource((boundary) => {
      if (boundary.kind === 'sampling' && boundary.step === 2) return [text('also X')]
      if (boundary.kind === 'final' && boundary.step === 2) return [text('one more thing')]
      return undefined
    })
    const { kernel, model } = setup(
      [
        { tool_calls: [{ name: 'echo', input: { text: 'tool ran' } }] },
        { error: { message: 'overloaded', retryable: true } },
        { text: 'done' },
        { text: 'really done' },
      ],
      [testTools, host.provider],
    )
    const session = await kernel.startSession()
    const result = await session.run('start')
    expect(result.status).toBe('completed')
    const claims = host.source().claims.map((claim) => `${claim.boundary.kind}:${claim.boundary.step}`)
    expect(claims).toEqual(['sampling:2', 'final:2', 'final:3'])
    expect(model.calls).toBe(4)
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:start', 'assistant:call:echo', 'tool:result:tool ran', 'user:also X'])
    expect(model.requests[2]).toEqual(model.requests[1])
    expect(flatten(model.requests[3]!.messages).slice(-2)).toEqual(['assistant:done', 'user:one more thing'])
    expect(
      host
        .source()
        .claims.filter((claim) => claim.items.length > 0)
        .map((claim) => claim.settlements),
    ).toEqual([['accept'], ['accept']])
    const events = readEvents(session.transcriptPath)
    expect(events.filter((event) => event.type === 'turn/start')).toHaveLength(1)
    const steered = model.requests[1]!.messages.at(-1)!
    expect(steered.source).toEqual({ kind: 'steering', transport: 'host' })
    expect(steered.role).toBe('user')
  })

  it('accept() happens only after the message and steering/accepted are in the log file', async () => {
    let logAtAccept = ''
    let path = ''
    const host = hostSource(
      (boundary) => (boundary.kind === 'final' && boundary.step === 1 ? [text('steer', 'item-1')] : undefined),
      () => {
        logAtAccept = readFileSync(path, 'utf8')
      },
    )
    const { kernel } = setup([{ text: 'a' }, { text: 'b' }], [host.provider])
    const session = await kernel.startSession()
    path = session.transcriptPath
    await session.run('go')
    const lines = logAtAccept
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const message = lines.find((event) => event.type === 'message' && event.message.meta?.steeringItemId === 'item-1')
    const accepted = lines.find((event) => event.type === 'steering/accepted')
    expect(message).toBeDefined()
    expect(accepted).toMatchObject({ itemIds: ['item-1'], droppedIds: [], transport: 'host', boundary: 'final' })
    expect(accepted.seq).toBeGreaterThan(message.seq)
  })

  it('empty claims cost no model call and are accepted without recording', async () => {
    const accepted: number[] = []
    const emptyHost = plugin('host', (kernel) =>
      kernel.provide('steering', () => ({
        capability: 'boundary',
        transport: 'host',
        wait: async () => {},
        claim: async () => ({ items: [], accept: () => accepted.push(1), reject: () => accepted.push(-1) }),
      })),
    )
    const { kernel, model } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'done' }], [testTools, emptyHost])
    const session = await kernel.startSession()
    await session.run('go')
    expect(model.calls).toBe(2)
    expect(accepted).toEqual([1, 1])
    expect(readEvents(session.transcriptPath).some((event) => event.type === 'steering/accepted')).toBe(false)
  })

  it('a claim is rejected when pre-step fails before recording, and the items stay the host’s', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'sampling' && boundary.step === 2 ? [text('keep me')] : undefined))
    const failing = plugin('failing', (kernel) => {
      kernel.hooks.preStep.tap('fail-on-2', (decision, { step }) => {
        if (step === 2) throw new Error('policy service down')
        return decision
      })
    })
    const { kernel } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'never' }],
      [testTools, host.provider, failing],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('failed')
    expect(host.source().claims[0]!.settlements).toEqual(['reject'])
    expect(session.messages.some((message) => textOf(message) === 'keep me')).toBe(false)
    // The log says the input went back, and why.
    expect(readEvents(session.transcriptPath).filter((event) => event.type === 'steering/returned')).toEqual([
      expect.objectContaining({
        turnId: result.turnId,
        step: 2,
        boundary: 'sampling',
        transport: 'host',
        itemIds: [expect.any(String)],
        reason: expect.stringContaining('policy service down'),
      }),
    ])
  })

  it('a claim is rejected when the turn is interrupted before recording', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'sampling' && boundary.step === 2 ? [text('keep me')] : undefined))
    const slow = plugin('slow', (kernel) => {
      kernel.hooks.preStep.tapPromise('slow-on-2', async (decision, { step, session }) => {
        if (step === 2) {
          session.interrupt('user pressed stop')
          await settled()
        }
        return decision
      })
    })
    const { kernel } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'never' }],
      [testTools, host.provider, slow],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'interrupted', reason: 'user pressed stop' })
    expect(host.source().claims[0]!.settlements).toEqual(['reject'])
    expect(session.messages.some((message) => textOf(message) === 'keep me')).toBe(false)
    const events = readEvents(session.transcriptPath)
    const returned = events.findIndex((event) => event.type === 'steering/returned')
    expect(events[returned]).toMatchObject({ step: 2, boundary: 'sampling', reason: 'the turn was interrupted (user pressed stop)' })
    // Before the turn's end: the turn gave it back.
    expect(returned).toBeLessThan(events.findIndex((event) => event.type === 'turn/end'))
  })

  it('an item a prompt policy drops is consumed: the claim is accepted, the drop reported, the turn goes on', async () => {
    const host = hostSource((boundary) =>
      boundary.kind === 'sampling' && boundary.step === 2 ? [text('fine', 'a'), text('blocked words', 'b')] : undefined,
    )
    const filter = plugin('filter', (kernel) => {
      kernel.hooks.preStep.tap('drop-blocked', (decision) =>
        decision.kind === 'enter'
          ? { ...decision, messages: decision.messages.filter((message) => !textOf(message).includes('blocked')) }
          : decision,
      )
    })
    const { kernel, model } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'done' }],
      [testTools, host.provider, filter],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    const claim = host.source().claims[0]!
    expect(claim.settlements).toEqual(['accept'])
    expect(claim.dropped).toEqual(['b'])
    expect(flatten(model.requests[1]!.messages).slice(-1)).toEqual(['user:fine'])
    const accepted = readEvents(session.transcriptPath).find((event) => event.type === 'steering/accepted')
    expect(accepted).toMatchObject({ itemIds: ['a'], droppedIds: ['b'] })
  })

  it('a rejected continuation step consumes its steering input and still samples the tool continuation', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'sampling' && boundary.step === 2 ? [text('nope', 'n')] : undefined))
    const reject = plugin('reject', (kernel) => {
      kernel.hooks.preStep.tap('reject-2', (decision, { step }) => (step === 2 ? { kind: 'reject', reason: 'not now' } : decision))
    })
    const { kernel, model } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'done' }],
      [testTools, host.provider, reject],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(model.calls).toBe(2)
    expect(host.source().claims[0]).toMatchObject({ settlements: ['accept'], dropped: ['n'] })
    const notices = readEvents(session.transcriptPath).filter((event) => event.type === 'notice')
    expect(notices.map((event) => (event as { text: string }).text)).toContain('steering input from host was consumed by policy: not now')
  })

  it('final-boundary input that a policy drops causes no extra model call; the stop hook then runs', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'final' && boundary.step === 1 ? [text('drop me', 'd')] : undefined))
    let stops = 0
    const policy = plugin('policy', (kernel) => {
      kernel.hooks.preStep.tap('drop', (decision) =>
        decision.kind === 'enter'
          ? { ...decision, messages: decision.messages.filter((message) => textOf(message) !== 'drop me') }
          : decision,
      )
      kernel.hooks.turnStopping.tap('count', (decision) => {
        stops++
        return decision
      })
    })
    const { kernel, model } = setup([{ text: 'only answer' }], [host.provider, policy])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'only answer' })
    expect(model.calls).toBe(1)
    expect(stops).toBe(1)
    expect(host.source().claims.map((claim) => `${claim.boundary.kind}:${claim.boundary.step}`)).toEqual(['final:1', 'final:2'])
    expect(host.source().claims[0]).toMatchObject({ settlements: ['accept'], dropped: ['d'] })
  })

  it('a tap may rewrite a steered item (here into developer context): it still counts as recorded and continues the turn', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'final' && boundary.step === 1 ? [text('host note', 'h-1')] : undefined))
    const rewrite = plugin('rewrite', (kernel) => {
      kernel.hooks.preStep.tap('as-developer', (decision) =>
        decision.kind === 'enter'
          ? {
              ...decision,
              messages: decision.messages.map((message) =>
                message.source.kind === 'steering' ? { ...message, role: 'developer' as const, meta: { ...message.meta } } : message,
              ),
            }
          : decision,
      )
    })
    const { kernel, model } = setup([{ text: 'first' }, { text: 'after the note' }], [host.provider, rewrite])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.lastAssistantMessage).toBe('after the note')
    expect(flatten(model.requests[1]!.messages).slice(-1)).toEqual(['developer:host note'])
    expect(host.source().claims[0]).toMatchObject({ settlements: ['accept'], dropped: [] })
    expect(readEvents(session.transcriptPath).find((event) => event.type === 'steering/accepted')).toMatchObject({
      itemIds: ['h-1'],
      droppedIds: [],
    })
  })

  it('a redelivered item (same id) is recognised and not recorded twice', async () => {
    const host = hostSource((boundary) => (boundary.step <= 2 ? [text('only once', 'dup-1')] : undefined))
    const { kernel, model } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'done' }, { text: 'end' }],
      [testTools, host.provider],
    )
    const session = await kernel.startSession()
    await session.run('go')
    expect(session.messages.filter((message) => textOf(message) === 'only once')).toHaveLength(1)
    expect(model.calls).toBe(2)
    expect(
      host
        .source()
        .claims.filter((claim) => claim.items.length > 0)
        .every((claim) => claim.settlements.join() === 'accept'),
    ).toBe(true)
  })

  it('when a later source fails at a boundary, claims already taken there go back to their hosts', async () => {
    let failures = 0
    const failing = plugin('host', (kernel) =>
      kernel.provide('steering', () => ({
        capability: 'boundary',
        transport: 'host',
        wait: async () => {},
        claim: async (boundary: Boundary) => {
          if (boundary.step === 2 && failures++ === 0) throw new Error('host connection lost')
          return undefined
        },
      })),
    )
    let receipt: (Promise<SteerOutcome> & { state(): string }) | undefined
    const steerer = plugin('steerer', (kernel) =>
      kernel.hooks.toolPostExecute.tap('steer', (decision, { session }) => {
        receipt ??= session.steer('keep me') as Promise<SteerOutcome> & { state(): string }
        return decision
      }),
    )
    const { kernel, model } = setup(
      [{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'answered' }, { text: 'answered the steer' }],
      [testTools, failing, steerer],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result).toMatchObject({ status: 'failed', error: 'host connection lost' })
    expect(receipt!.state()).toBe('returned')
    // The next turn's first step has fresh input; the returned item is claimed at its final boundary.
    expect(await session.run('again')).toMatchObject({ status: 'completed', lastAssistantMessage: 'answered the steer' })
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(flatten(model.requests[2]!.messages).slice(-2)).toEqual(['assistant:answered', 'user:keep me'])
  })

  it('an item a policy dropped is not fed again when a host redelivers it', async () => {
    const host = hostSource((boundary) => (boundary.kind === 'sampling' && boundary.step >= 2 ? [text('unwanted', 'u-1')] : undefined))
    let seen = 0
    const policy = plugin('policy', (kernel) => {
      kernel.hooks.preStep.tap('drop', (decision) => {
        if (decision.kind !== 'enter') return decision
        seen += decision.messages.filter((message) => textOf(message) === 'unwanted').length
        return { ...decision, messages: decision.messages.filter((message) => textOf(message) !== 'unwanted') }
      })
    })
    const { kernel } = setup(
      [
        { tool_calls: [{ name: 'echo', input: { text: 'a' } }] },
        { tool_calls: [{ name: 'echo', input: { text: 'b' } }] },
        { text: 'done' },
      ],
      [testTools, host.provider, policy],
    )
    const session = await kernel.startSession()
    await session.run('go')
    expect(seen).toBe(1)
    expect(
      host
        .source()
        .claims.filter((claim) => claim.items.length > 0)
        .map((claim) => claim.settlements),
    ).toEqual([['accept'], ['accept']])
  })

  it('interrupt aborts a claim still in flight and rejects it if it arrives late', async () => {
    const settlements: string[] = []
    // The claim at step 2 hands its items over only once the test, having interrupted the turn, releases it.
    let claimed!: () => void
    let release!: () => void
    const inFlight = new Promise<void>((resolve) => {
      claimed = resolve
    })
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const slowHost = plugin('host', (kernel) =>
      kernel.provide('steering', () => ({
        capability: 'boundary',
        transport: 'host',
        wait: async () => {},
        claim: async (boundary: Boundary) => {
          if (boundary.step !== 2) return undefined
          claimed()
          await released
          return { items: [text('late')], accept: () => settlements.push('accept'), reject: () => settlements.push('reject') }
        },
      })),
    )
    const { kernel } = setup([{ tool_calls: [{ name: 'echo', input: { text: 'x' } }] }, { text: 'never' }], [testTools, slowHost])
    const session = await kernel.startSession()
    const running = session.run('go')
    await inFlight
    session.interrupt()
    release()
    expect((await running).status).toBe('interrupted')
    await waitUntil(() => settlements.length > 0, 'the late claim to settle')
    expect(settlements).toEqual(['reject'])
  })
})

describe('in-process steering (session.steer)', () => {
  const steerDuringTool = (steer: (text: string) => void) =>
    plugin('steer-tool', (kernel) =>
      kernel.registerTool(
        defineTool({
          name: 'work',
          description: 'Does work; the user steers meanwhile.',
          inputSchema: z.object({ say: z.string() }),
          async execute({ say }) {
            steer(say)
            return { output: 'worked', isError: false }
          },
        }),
      ),
    )

  it('a steer during a tool lands after its result, in the same turn; the receipt says recorded', async () => {
    const receipts: Promise<SteerOutcome>[] = []
    let steerFn: (value: string) => void = () => {}
    const { kernel, model } = setup(
      [{ tool_calls: [{ name: 'work', input: { say: 'please also add tests' } }] }, { text: 'done' }],
      [steerDuringTool((value) => steerFn(value))],
    )
    const session = await kernel.startSession()
    steerFn = (value) => receipts.push(session.steer(value))
    const result = await session.run('go')
    expect(result.status).toBe('completed')
    expect(flatten(model.requests[1]!.messages)).toEqual([
      'user:go',
      'assistant:call:work',
      'tool:result:worked',
      'user:please also add tests',
    ])
    expect(model.requests[1]!.messages.at(-1)!.source).toEqual({ kind: 'steering', transport: 'in-process' })
    await expect(receipts[0]).resolves.toMatchObject({ state: 'recorded' })
  })

  it('a steer while the model writes its final text is claimed at the final boundary and continues the same turn', async () => {
    let steered = false
    const steerer = plugin('steerer', (kernel) =>
      kernel.hooks.modelRequest.tap('steer-once', (request, { session }) => {
        if (!steered) {
          steered = true
          session.steer('wait, one more thing')
        }
        return request
      }),
    )
    const { kernel, model } = setup([{ text: 'done' }, { text: 'done, with the extra thing' }], [steerer])
    const session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.lastAssistantMessage).toBe('done, with the extra thing')
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:go', 'assistant:done', 'user:wait, one more thing'])
    expect(readEvents(session.transcriptPath).filter((event) => event.type === 'turn/start')).toHaveLength(1)
  })

  it('input queued after the final boundary starts the next turn; it never vanishes', async () => {
    let receipt: Promise<SteerOutcome> | undefined
    const late = plugin('late', (kernel) =>
      kernel.hooks.turnStopping.tap('steer-late', (decision, { session }) => {
        receipt ??= session.steer('follow-up')
        return decision
      }),
    )
    const { kernel, model } = setup([{ text: 'first' }, { text: 'second' }], [late])
    const session = await kernel.startSession()
    const first = await session.run('go')
    expect(first.status).toBe('completed')
    await session.idle()
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(model.calls).toBe(2)
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:go', 'assistant:first', 'user:follow-up'])
    expect(readEvents(session.transcriptPath).filter((event) => event.type === 'turn/start')).toHaveLength(2)
  })

  it('steer while idle starts a turn; a prompt policy that drops it resolves the receipt as dropped', async () => {
    const filter = plugin('filter', (kernel) => {
      kernel.hooks.preStep.tap('drop', (decision) =>
        decision.kind === 'enter'
          ? { ...decision, messages: decision.messages.filter((message: Message) => !textOf(message).includes('rm -rf')) }
          : decision,
      )
    })
    const { kernel, model } = setup([{ text: 'hello' }], [filter])
    const session = await kernel.startSession()
    await expect(session.steer('say hello')).resolves.toMatchObject({ state: 'recorded' })
    await session.idle()
    expect(model.calls).toBe(1)
    await expect(session.steer('rm -rf /')).resolves.toMatchObject({ state: 'dropped', reason: 'dropped by agent/pre-step' })
    await session.idle()
    expect(model.calls).toBe(1)
  })

  it('interrupt keeps queued input queued; ending the session cancels it explicitly', async () => {
    let receipt: (Promise<SteerOutcome> & { itemIds: readonly string[] }) | undefined
    let stillQueued: string[] = []
    const { kernel } = setup(
      [{ tool_calls: [{ name: 'work', input: { say: 'x' } }] }],
      [
        steerDuringTool(() => {
          receipt = activeSession!.steer('do this next turn', { when: 'next-turn' })
          stillQueued = activeSession!.interrupt().stillQueued
        }),
      ],
    )
    const session = await kernel.startSession()
    activeSession = session
    const result = await session.run('go')
    expect(result.status).toBe('interrupted')
    expect(stillQueued).toEqual(receipt!.itemIds)
    await session.idle()
    await session.end()
    await expect(receipt).rejects.toBeInstanceOf(SteeringCancelledError)
    const dropped = readEvents(session.transcriptPath).find((event) => event.type === 'steering/dropped')
    expect(dropped).toMatchObject({ itemIds: receipt!.itemIds, transport: 'in-process' })
  })
})
