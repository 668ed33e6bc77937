import { describe, expect, it } from 'vitest'
import { ENVIRONMENT_SLOTS, EnvironmentSlots, sameEnvironment } from '../src/process/launcher/environment-slots.js'

describe('EnvironmentSlots', () => {
  it('sends an environment once, then names it by its slot', () => {
    const slots = new EnvironmentSlots()
    const env = { PATH: '/bin', HOME: '/root' }
    expect(slots.refer(env)).toEqual({ slot: 0, set: env })
    expect(slots.refer({ HOME: '/root', PATH: '/bin' })).toEqual({ slot: 0 })
    expect(slots.refer({ PATH: '/bin', HOME: '/home/other' })).toEqual({ slot: 1, set: { PATH: '/bin', HOME: '/home/other' } })
    expect(slots.refer(env)).toEqual({ slot: 0 })
  })

  it('gives up the least recently used slot for a new environment once all are taken', () => {
    const slots = new EnvironmentSlots()
    const envs = Array.from({ length: ENVIRONMENT_SLOTS }, (_, i) => ({ N: String(i) }))
    for (const env of envs) slots.refer(env)
    // The first is used again, so the second is now the oldest.
    expect(slots.refer(envs[0]!)).toEqual({ slot: 0 })
    expect(slots.refer({ N: 'new' })).toEqual({ slot: 1, set: { N: 'new' } })
    expect(slots.refer(envs[1]!)).toEqual({ slot: 2, set: envs[1] })
    expect(slots.refer(envs[0]!)).toEqual({ slot: 0 })
  })

  it('sends a forgotten slot again before naming it', () => {
    const slots = new EnvironmentSlots()
    const env = { A: '1' }
    const { slot } = slots.refer(env)
    slots.forget(slot)
    expect(slots.refer(env)).toEqual({ slot, set: env })
    expect(slots.refer(env)).toEqual({ slot })
  })
})

describe('sameEnvironment', () => {
  it('compares names and values; a variable set to undefined is not there', () => {
    expect(sameEnvironment({ A: '1', B: undefined }, { A: '1' })).toBe(true)
    expect(sameEnvironment({ A: '1' }, { A: '1', B: undefined })).toBe(true)
    expect(sameEnvironment({ A: '1' }, { A: '2' })).toBe(false)
    expect(sameEnvironment({ A: '1' }, { A: '1', B: '' })).toBe(false)
    expect(sameEnvironment({ A: '1', B: '' }, { A: '1' })).toBe(false)
    expect(sameEnvironment({}, {})).toBe(true)
  })
})
