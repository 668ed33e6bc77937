import type { Boundary } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import { OmpSteeringError, OmpSteeringSource, type UserMessage } from '../src/index.js'
import { FakeOmpAgent } from './fake-omp.js'
import { settled, texts } from './helpers.js'

const boundary: Boundary = { kind: 'sampling', sessionId: 's', turnId: 't', step: 2 }
const live = () => new AbortController().signal

describe('OmpSteeringSource', () => {
  it('is a live source for the omp transport; an empty OMP claim passes through as undefined', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const source = new OmpSteeringSource(call)
    expect(source.capability).toBe('live')
    expect(source.transport).toBe('omp')
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call.claimCalls).toBe(1)
    await expect(new OmpSteeringSource().claim(boundary, live())).resolves.toBeUndefined()
  })

  it('turns each message into one text item with a stable id; text parts are joined', async () => {
    const agent = new FakeOmpAgent()
    const source = new OmpSteeringSource(agent.startCall())
    agent.push('plain')
    agent.pushMessage({
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      timestamp: 5,
    })
    agent.pushMessage({ role: 'user', content: 'plain', timestamp: 5 })
    agent.pushMessage({ role: 'user', content: 'plain', timestamp: 5 })
    const claim = (await source.claim(boundary, live()))!
    expect(claim.items.map((item) => item.text)).toEqual(['plain', 'a\nb', 'plain', 'plain'])
    const ids = claim.items.map((item) => item.id)
    expect(new Set(ids).size).toBe(4)
    expect(ids[3]).toBe(`${ids[2]}:1`)
    claim.reject()
  })

  it('settles the OMP claim exactly once, after the kernel settles; a second settle throws', async () => {
    const agent = new FakeOmpAgent()
    const call = agent.startCall()
    const source = new OmpSteeringSource(call)
    agent.push('x')
    const claim = (await source.claim(boundary, live()))!
    expect(call.settlements).toEqual([])
    claim.accept()
    expect(call.settlements).toEqual(['accept'])
    expect(() => claim.accept()).toThrow(OmpSteeringError)
    expect(() => claim.reject()).toThrow('settled twice')
    expect(call.settlements).toEqual(['accept'])
  })

  it('after a reject: claim returns undefined at once for the rest of the call; a rebind resets it', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const source = new OmpSteeringSource(call1)
    agent.push('first')
    const claim = (await source.claim(boundary, live()))!
    claim.reject()
    agent.push('second')
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call1.claimCalls).toBe(1)
    expect(source.stopped).toBe(true)

    source.rebind(agent.startCall())
    expect(source.stopped).toBe(false)
    const next = (await source.claim(boundary, live()))!
    expect(next.items.map((item) => item.text)).toEqual(['first', 'second'])
    next.accept()
  })

  it('ending a call rejects its unsettled claim and never touches its LiveSteering again', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const source = new OmpSteeringSource(call1)
    agent.push('held')
    const claim = (await source.claim(boundary, live()))!
    source.endCall()
    expect(call1.settlements).toEqual(['reject'])
    expect(source.current).toBeUndefined()
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call1.claimCalls).toBe(1)
    expect(() => source.rebind(call1)).toThrow(OmpSteeringError)

    // The kernel still settles its claim once; OMP's claim is not settled again.
    claim.reject()
    expect(() => claim.reject()).toThrow(OmpSteeringError)
    expect(call1.settlements).toEqual(['reject'])
  })

  it('a rebind ends the previous call the same way', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const source = new OmpSteeringSource(call1)
    agent.push('held')
    await source.claim(boundary, live())
    const call2 = agent.startCall()
    source.rebind(call2)
    expect(call1.settlements).toEqual(['reject'])
    expect(source.current).toBe(call2)
  })

  it('if the kernel accepts a claim whose call already ended, OMP’s redelivery of it is consumed, not fed again', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const source = new OmpSteeringSource(call1)
    agent.push('recorded late')
    const claim = (await source.claim(boundary, live()))!
    source.endCall()
    claim.accept()
    expect(call1.settlements).toEqual(['reject'])
    const call2 = agent.startCall()
    source.rebind(call2)
    expect(texts(agent.queue)).toEqual(['recorded late'])
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call2.settlements).toEqual(['accept'])
  })

  it('a claim still in flight when the call ends is rejected on arrival', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const hold = call1.holdHandOver()
    const source = new OmpSteeringSource(call1)
    agent.push('slow')
    const pending = source.claim(boundary, live())
    await hold.taken
    source.endCall()
    hold.release()
    await expect(pending).resolves.toBeUndefined()
    expect(call1.settlements).toEqual(['reject'])
    expect(texts(call1.deferred)).toEqual(['slow'])
  })

  it('the getter form: a new object rebinds, undefined ends the call, a stale object is never used', async () => {
    const agent = new FakeOmpAgent()
    let current: ReturnType<FakeOmpAgent['startCall']> | undefined = agent.startCall()
    const call1 = current
    const source = new OmpSteeringSource(() => current)
    agent.push('a')
    const claim = (await source.claim(boundary, live()))!
    current = undefined
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call1.settlements).toEqual(['reject'])
    claim.reject()
    current = call1
    await expect(source.claim(boundary, live())).resolves.toBeUndefined()
    expect(call1.claimCalls).toBe(1)
    current = agent.startCall()
    const next = (await source.claim(boundary, live()))!
    expect(next.items.map((item) => item.text)).toEqual(['a'])
    next.accept()
  })

  it('wait delegates to the call, resolves only on abort after a reject, and wakes for a later rebind', async () => {
    const agent = new FakeOmpAgent()
    const call1 = agent.startCall()
    const source = new OmpSteeringSource(call1)
    const waiting = source.wait(live())
    await settled()
    agent.push('now')
    await waiting
    expect(call1.waitCalls).toBe(1)

    const claim = (await source.claim(boundary, live()))!
    claim.reject()
    const abort = new AbortController()
    let woke = false
    const stopped = source.wait(abort.signal).then(() => {
      woke = true
    })
    await settled()
    expect(woke).toBe(false)
    expect(call1.waitCalls).toBe(1)
    source.rebind(agent.startCall())
    await stopped
    expect(woke).toBe(true)

    const idle = new OmpSteeringSource()
    let idleWoke = false
    const idleWait = idle.wait(live()).then(() => {
      idleWoke = true
    })
    await settled()
    expect(idleWoke).toBe(false)
    const fresh = new FakeOmpAgent()
    idle.rebind(fresh.startCall())
    fresh.push('x')
    await idleWait
    expect(idleWoke).toBe(true)
  })

  it('a message without a timestamp is identified by object only, so equal text is never mistaken for an echo', async () => {
    const agent = new FakeOmpAgent()
    const source = new OmpSteeringSource(agent.startCall())
    const yes: UserMessage = { role: 'user', content: 'yes' }
    agent.pushMessage(yes)
    const first = (await source.claim(boundary, live()))!
    first.accept()
    agent.pushMessage({ role: 'user', content: 'yes' })
    agent.pushMessage(yes)
    const second = (await source.claim(boundary, live()))!
    expect(second.items.map((item) => item.text)).toEqual(['yes'])
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id)
    second.accept()
  })
})
