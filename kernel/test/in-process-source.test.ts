import { describe, expect, it } from 'vitest'
import { type Boundary, InProcessSteeringSource, SteeringCancelledError } from '../src/index.js'

const at = (kind: Boundary['kind'], step: number): Boundary => ({ kind, step, sessionId: 's', turnId: 't' })
const signal = new AbortController().signal

describe('InProcessSteeringSource', () => {
  it('claims queued items as one batch and resolves receipts on accept', async () => {
    const source = new InProcessSteeringSource()
    const a = source.push('a')
    const b = source.push([
      { type: 'text', text: 'b1', id: 'id-b1' },
      { type: 'text', text: 'b2' },
    ])
    expect(a.state()).toBe('queued')
    const claim = await source.claim(at('sampling', 2), signal)
    expect(claim!.items.map((item) => item.text)).toEqual(['a', 'b1', 'b2'])
    expect(claim!.items[1]!.id).toBe('id-b1')
    expect(a.state()).toBe('claimed')
    claim!.drop!(a.itemIds[0]!, 'blocked by hook')
    claim!.accept()
    await expect(a).resolves.toEqual({ state: 'dropped', itemIds: a.itemIds, reason: 'blocked by hook' })
    await expect(b).resolves.toEqual({ state: 'recorded', itemIds: b.itemIds })
    expect(await source.claim(at('sampling', 3), signal)).toBeUndefined()
  })

  it('a rejected claim goes back ahead of newer input', async () => {
    const source = new InProcessSteeringSource()
    source.push('old')
    const first = await source.claim(at('sampling', 2), signal)
    source.push('new')
    first!.reject()
    const second = await source.claim(at('sampling', 3), signal)
    expect(second!.items.map((item) => item.text)).toEqual(['old', 'new'])
  })

  it('a second settle throws', async () => {
    const source = new InProcessSteeringSource()
    source.push('x')
    const claim = await source.claim(at('final', 1), signal)
    claim!.accept()
    expect(() => claim!.accept()).toThrow('steering claim settled twice')
    expect(() => claim!.reject()).toThrow('steering claim settled twice')
  })

  it('next-turn items wait for a turn start; wait() resolves only for input a mid-turn boundary can claim, without consuming', async () => {
    const source = new InProcessSteeringSource()
    source.push('later', { when: 'next-turn' })
    let woke = false
    const waiting = source.wait(signal).then(() => {
      woke = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(woke).toBe(false)
    source.push('now')
    await waiting
    const midTurn = await source.claim(at('sampling', 2), signal)
    expect(midTurn!.items.map((item) => item.text)).toEqual(['now'])
    midTurn!.accept()
    expect(await source.claim(at('sampling', 2), signal)).toBeUndefined()
    expect(await source.claim(at('final', 1), signal)).toBeUndefined()
    expect(source.hasClaimable(false)).toBe(false)
    expect(source.hasClaimable(true)).toBe(true)
    const claim = await source.claim(at('sampling', 1), signal)
    expect(claim!.items.map((item) => item.text)).toEqual(['later'])
  })

  it('cancelAll rejects the receipts of queued items', async () => {
    const source = new InProcessSteeringSource()
    const receipt = source.push('x')
    expect(source.cancelAll('session ended')).toEqual(receipt.itemIds)
    await expect(receipt).rejects.toBeInstanceOf(SteeringCancelledError)
    expect(receipt.state()).toBe('cancelled')
  })

  it('refuses empty input', () => {
    expect(() => new InProcessSteeringSource().push([])).toThrow('session.steer() needs at least one input item')
  })
})
