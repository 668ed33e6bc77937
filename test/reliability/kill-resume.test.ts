/**
 * A kernel killed mid-turn loses no accepted input: child processes (the build) run turns with tool calls while the
 * test steers into them over stdin, and each is SIGKILLed at a drawn point (just after a steer, after a receipt, in a
 * tool, in a model call). The next process resumes the session (taking over the dead one's lock); at the end the log
 * holds every steer whose receipt said `recorded` exactly once, and no steer twice. `npm run bench -- reliability`
 * runs 20 kills.
 */
import { describe, expect, it } from 'vitest'
import { killResumeViolations, runKillResume } from '../../bench/src/reliability/kill-resume.js'
import { seedFromEnv } from '../../bench/src/reliability/prng.js'

describe('kill and resume', () => {
  it('8 SIGKILLs mid-turn: every recorded steer is in the log exactly once; the resumed session runs a turn', async () => {
    const seed = seedFromEnv()
    const context = `seed ${seed} (RELIABILITY_SEED=${seed} replays the draws; timings vary)`
    const result = await runKillResume({ seed, rounds: 8 })
    expect(killResumeViolations(result), context).toEqual({ lost: [], doubled: [], unknown: [] })
    expect(result.finalTurn).toBe('completed')
    expect(result.sequential).toBe(true)
    // Every resume after a kill took the dead process's lock over, with a notice.
    expect(result.takeovers).toBe(8)
    // The kills did cut through accepted input: some steers were recorded before a kill.
    expect(result.recorded.length, context).toBeGreaterThan(0)
  }, 60_000)
})
