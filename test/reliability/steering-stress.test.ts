/**
 * Steering under stress on the kernel's own loop, as the driver acceptance tests check it for Claude Code and Codex:
 * `session.steer()` at random times during turns with tool calls (one or two parallel), with interrupts mixed in.
 * Every receipt settles exactly once, as documented (docs/steering.md): `recorded`, `dropped` by a prompt policy, or
 * rejected with SteeringCancelledError when the session ends with it queued; nothing is lost and nothing doubled.
 */
import { describe, expect, it } from 'vitest'
import { seedFromEnv } from '../../bench/src/reliability/prng.js'
import { runSteeringStress, steeringViolations } from '../../bench/src/reliability/steering-stress.js'

describe('steering stress on the native loop', () => {
  it('steers at random times with interrupts: every receipt settles once, 0 lost, 0 doubled', async () => {
    const seed = seedFromEnv()
    const context = `seed ${seed} (RELIABILITY_SEED=${seed} replays the draws; timings vary)`
    const result = await runSteeringStress({ seed, turns: 120, steersPerTurn: 8, interruptChance: 0.2 })

    expect(steeringViolations(result), context).toEqual({
      unsettled: [],
      settledTwice: [],
      wrongOutcome: [],
      lost: [],
      doubled: [],
      unexpectedInLog: [],
    })
    // Every recorded steer is in the log once and reached the model once; dropped and cancelled ones never did.
    const recorded = result.steers.filter((steer) => steer.outcome === 'recorded').map((steer) => steer.text)
    expect([...result.loggedTexts].sort(), context).toEqual([...recorded].sort())
    for (const steer of result.steers) {
      expect(result.lastRequestTexts.filter((text) => text === steer.text).length, `${context}: ${steer.text}`).toBe(
        steer.outcome === 'recorded' ? 1 : 0,
      )
    }
    const cancelled = result.steers.filter((steer) => steer.outcome === 'cancelled')
    expect(cancelled).toHaveLength(3)
    expect([...result.cancelledIds].sort(), context).toEqual(cancelled.flatMap((steer) => steer.itemIds).sort())
    // The stress did what it is for: many steers, all three outcomes, interrupted turns.
    expect(result.steers.length, context).toBeGreaterThan(600)
    expect(
      result.steers.some((steer) => steer.outcome === 'dropped'),
      context,
    ).toBe(true)
    expect(result.interrupts, context).toBeGreaterThan(5)
    expect(result.turnStatuses.interrupted, context).toBeGreaterThan(0)
    expect(result.turnStatuses.completed, context).toBeGreaterThan(0)
  })
})
