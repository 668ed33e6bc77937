import { readFileSync } from 'node:fs'
import { type Boundary, type Message, type Session, textOf } from '@harness-kernel/kernel'
import { describe, expect, it, vi } from 'vitest'
import { ompSteering, type UserMessage } from '../src/index.js'
import { FakeOmpAgent } from './fake-omp.js'
import { flatten, harnessPerTest, plugin, readEvents, settled, steeringTool, texts, waitUntil } from './helpers.js'

const setup = harnessPerTest()

const work = (...say: string[]) => ({ tool_calls: [{ name: 'work', input: { say } }] })

function boundaries(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.map(([boundary]) => `${(boundary as Boundary).kind}:${(boundary as Boundary).step}`)
}

function steeredTexts(session: Session): string[] {
  return session.messages.filter((message) => message.source?.kind === 'steering').map((message) => textOf(message))
}

describe('ompSteering through a real kernel', () => {
  it('a steer pushed during a tool is claimed at the next sampling boundary, recorded after the tool result, then accepted', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    let session!: Session
    let logAtAccept = ''
    agent.onAccepted = () => {
      logAtAccept = readFileSync(session.transcriptPath, 'utf8')
    }
    const { kernel, model } = setup([work('please also add tests'), { text: 'done' }], [omp, steeringTool(() => agent)])
    session = await kernel.startSession()
    const result = await session.run('go')

    expect(result.status).toBe('completed')
    expect(flatten(model.requests[1]!.messages)).toEqual([
      'user:go',
      'assistant:call:work',
      'tool:result:worked',
      'user:please also add tests',
    ])
    expect(model.requests[1]!.messages.at(-1)!.source).toEqual({ kind: 'steering', transport: 'omp' })
    expect(call.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['please also add tests'])

    const atAccept = logAtAccept
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const message = atAccept.find((event) => event.type === 'message' && event.message.source?.kind === 'steering')
    const accepted = atAccept.find((event) => event.type === 'steering/accepted')
    expect(message.message.content).toEqual([{ type: 'text', text: 'please also add tests' }])
    expect(accepted).toMatchObject({ transport: 'omp', boundary: 'sampling', step: 2, droppedIds: [] })
    expect(accepted.itemIds).toEqual([message.message.meta.steeringItemId])
    expect(accepted.itemIds[0]).toMatch(/^omp:/)
    expect(accepted.seq).toBeGreaterThan(message.seq)
  })

  it('claims once per boundary, never per provider retry, and two messages of one batch are recorded in order', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    const claim = vi.spyOn(omp.source, 'claim')
    const { kernel, model } = setup(
      [work('first', 'second'), { error: { message: 'overloaded', retryable: true } }, { text: 'done' }],
      [omp, steeringTool(() => agent)],
    )
    const session = await kernel.startSession()
    await session.run('go')

    expect(boundaries(claim)).toEqual(['sampling:2', 'final:2'])
    expect(call.claimCalls).toBe(2)
    expect(call.claims).toHaveLength(1)
    expect(call.settlements).toEqual(['accept'])
    expect(model.calls).toBe(3)
    expect(model.requests[2]).toEqual(model.requests[1])
    expect(flatten(model.requests[1]!.messages).slice(-2)).toEqual(['user:first', 'user:second'])
  })

  it('input claimed at the final boundary continues the same turn', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    const claim = vi.spyOn(omp.source, 'claim')
    let pushed = false
    const streaming = plugin('streaming-steer', (kernel) =>
      kernel.hooks.modelRequest.tap('steer-while-streaming', (request) => {
        if (!pushed) {
          pushed = true
          agent.push('wait, one more thing')
        }
        return request
      }),
    )
    const { kernel, model } = setup([{ text: 'done' }, { text: 'done, with the extra thing' }], [omp, streaming])
    const session = await kernel.startSession()
    const result = await session.run('go')

    expect(result).toMatchObject({ status: 'completed', lastAssistantMessage: 'done, with the extra thing' })
    expect(boundaries(claim)).toEqual(['final:1', 'final:2'])
    expect(flatten(model.requests[1]!.messages)).toEqual(['user:go', 'assistant:done', 'user:wait, one more thing'])
    expect(readEvents(session.transcriptPath).filter((event) => event.type === 'turn/start')).toHaveLength(1)
    expect(call.settlements).toEqual(['accept'])
  })

  it('an interrupt before recording rejects the claim; the adapter then claims nothing until rebind; the deferred input comes first at the next call', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const omp = ompSteering(call1)
    let interrupted = false
    const stopper = plugin('stopper', (kernel) => {
      kernel.hooks.preStep.tapPromise('interrupt-on-2', async (decision, { step, session }) => {
        if (step === 2 && !interrupted) {
          interrupted = true
          session.interrupt('user pressed stop')
          await settled()
        }
        return decision
      })
    })
    const { kernel, model } = setup([work('first'), work(), { text: 'done' }], [omp, steeringTool(() => agent), stopper])
    const session = await kernel.startSession()
    const first = await session.run('go')

    expect(first).toMatchObject({ status: 'interrupted', reason: 'user pressed stop' })
    expect(call1.settlements).toEqual(['reject'])
    expect(texts(call1.deferred)).toEqual(['first'])
    expect(steeredTexts(session)).toEqual([])
    expect(omp.source.stopped).toBe(true)

    // Rule 4: for the rest of this call the adapter claims nothing and waits only for abort.
    agent.push('newer')
    const boundary: Boundary = { kind: 'sampling', sessionId: session.id, turnId: 't', step: 9 }
    await expect(omp.source.claim(boundary, new AbortController().signal)).resolves.toBeUndefined()
    expect(call1.claimCalls).toBe(1)
    const abort = new AbortController()
    let woke = false
    const waiting = omp.source.wait(abort.signal).then(() => {
      woke = true
    })
    await settled()
    expect(woke).toBe(false)
    abort.abort()
    await waiting
    expect(woke).toBe(true)

    // The next provider call: OMP puts the deferred input ahead of later input.
    const call2 = agent.startCall()
    omp.source.rebind(call2)
    expect(omp.source.stopped).toBe(false)
    const second = await session.run('continue')

    expect(second.status).toBe('completed')
    expect(flatten(model.requests.at(-1)!.messages).slice(-2)).toEqual(['user:first', 'user:newer'])
    expect(call2.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['first', 'newer'])
    expect(call1.claimCalls).toBe(1)
  })

  it('an interrupt while the claim is in flight rejects the late claim; nothing is recorded', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    let session!: Session
    const { kernel, model } = setup(
      [work('late steer'), { text: 'never' }],
      [
        omp,
        steeringTool(
          () => agent,
          () => {
            // Interrupted once the claim has taken the batch, before it hands it over.
            const hold = call.holdHandOver()
            void hold.taken.then(() => {
              session.interrupt()
              hold.release()
            })
          },
        ),
      ],
    )
    session = await kernel.startSession()
    const result = await session.run('go')
    expect(result.status).toBe('interrupted')
    await waitUntil(() => call.settlements.length > 0, 'the late claim to settle')

    expect(call.settlements).toEqual(['reject'])
    expect(texts(call.deferred)).toEqual(['late steer'])
    expect(steeredTexts(session)).toEqual([])
    expect(model.calls).toBe(1)
    expect(omp.source.stopped).toBe(true)
  })

  it('the getter form rebinds on each new provider call; a failed pre-step rejects, and the deferred input leads the next call', async () => {
    const agent = new FakeOmpAgent()
    const omp = ompSteering(() => agent.current)
    const perCall = plugin('per-call', (kernel) => {
      kernel.hooks.modelRequest.tap('new-provider-call', (request) => {
        agent.startCall()
        return request
      })
    })
    let failed = false
    const failing = plugin('failing', (kernel) => {
      kernel.hooks.preStep.tap('fail-once-on-2', (decision, { step }) => {
        if (step === 2 && !failed) {
          failed = true
          throw new Error('policy service down')
        }
        return decision
      })
    })
    const { kernel } = setup([work('x'), work('y'), { text: 'done' }], [omp, steeringTool(() => agent), perCall, failing])
    const session = await kernel.startSession()
    const first = await session.run('go')
    const call1 = agent.channels[0]!

    expect(first.status).toBe('failed')
    expect(call1.settlements).toEqual(['reject'])
    expect(omp.source.stopped).toBe(true)

    const second = await session.run('again')
    expect(second.status).toBe('completed')
    const call2 = agent.channels[1]!
    expect(call2.claims.map((claim) => texts(claim.messages))).toEqual([['x', 'y']])
    expect(call2.settlements).toEqual(['accept'])
    expect(steeredTexts(session)).toEqual(['x', 'y'])
    expect(call1.claimCalls).toBe(1)
  })

  it('an item a prompt policy drops is consumed: accepted in OMP, reported, and never fed again', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const dropped: [string, string][] = []
    const omp = ompSteering(call1, { onDropped: (message, reason) => dropped.push([texts([message])[0]!, reason]) })
    const filter = plugin('filter', (kernel) => {
      kernel.hooks.preStep.tap('drop-blocked', (decision) =>
        decision.kind === 'enter'
          ? { ...decision, messages: decision.messages.filter((message: Message) => !textOf(message).includes('blocked')) }
          : decision,
      )
    })
    const { kernel, model } = setup(
      [work('fine', 'blocked words'), { text: 'done' }, work(), { text: 'done again' }],
      [omp, steeringTool(() => agent), filter],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')

    expect(result.status).toBe('completed')
    expect(call1.settlements).toEqual(['accept'])
    expect(texts(agent.accepted)).toEqual(['fine', 'blocked words'])
    expect(dropped).toEqual([['blocked words', 'dropped by agent/pre-step']])
    expect(flatten(model.requests[1]!.messages).slice(-1)).toEqual(['user:fine'])
    const accepted = readEvents(session.transcriptPath).find((event) => event.type === 'steering/accepted')
    expect(accepted).toMatchObject({ itemIds: [expect.stringMatching(/^omp:/)], droppedIds: [expect.stringMatching(/^omp:/)] })

    // OMP hands the dropped message back in a later call: the adapter consumes it without feeding the kernel.
    const blocked = agent.accepted[1]!
    expect(omp.source.wasAccepted(blocked)).toBe(true)
    const call2 = agent.startCall()
    omp.source.rebind(call2)
    agent.pushMessage(blocked)
    const again = await session.run('again')

    expect(again.status).toBe('completed')
    expect(call2.settlements).toEqual(['accept'])
    expect(dropped).toHaveLength(1)
    expect(steeredTexts(session)).toEqual(['fine'])
    expect(model.calls).toBe(4)
  })

  it('accepted messages that OMP echoes in a later claim are not recorded twice', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const omp = ompSteering(call1)
    const { kernel, model } = setup(
      [work('add tests'), { text: 'one' }, work(), { text: 'two' }, work(), { text: 'three' }],
      [omp, steeringTool(() => agent)],
    )
    const session = await kernel.startSession()
    await session.run('go')
    const original = agent.accepted[0]!

    // Call 2: the same object comes back ahead of new input.
    const call2 = agent.startCall()
    omp.source.rebind(call2)
    agent.pushMessage(original)
    agent.push('and docs')
    await session.run('next')
    expect(call2.claims.map((claim) => texts(claim.messages))).toEqual([['add tests', 'and docs']])
    expect(call2.settlements).toEqual(['accept'])
    expect(flatten(model.requests[3]!.messages).slice(-1)).toEqual(['user:and docs'])

    // Call 3: a structurally equal copy (same timestamp and content) is recognised too; nothing new, no extra sample.
    const call3 = agent.startCall()
    omp.source.rebind(call3)
    agent.pushMessage({ ...original } as UserMessage)
    await session.run('last')
    expect(call3.settlements).toEqual(['accept'])
    expect(steeredTexts(session)).toEqual(['add tests', 'and docs'])
    expect(model.calls).toBe(6)
  })

  it('a message with image content is rejected loudly: the turn fails and the input stays in OMP', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const omp = ompSteering(call)
    const image: UserMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'look at this' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      ],
      timestamp: 1,
    }
    const { kernel } = setup(
      [work(), { text: 'never' }],
      [
        omp,
        steeringTool(
          () => agent,
          () => agent.pushMessage(image),
        ),
      ],
    )
    const session = await kernel.startSession()
    const result = await session.run('go')

    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/omp-steering: claimed input the kernel cannot record \(a user message with image content\)/)
    expect(call.settlements).toEqual(['reject'])
    expect(call.deferred).toEqual([image])
    expect(omp.source.stopped).toBe(true)
  })
})
