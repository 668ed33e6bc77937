import type { SteerOutcome, SteerReceipt } from '@harness-kernel/kernel'
import { waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog } from '../support/driver-harness.js'
import { parkBatch, parkDirective, parkTool } from '../support/park-tool.js'
import { wireQuery } from '../support/wire.js'

// Observed against Claude Code 2.1.332 (Agent SDK 0.3.332).
let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('steering stress on the Claude Code driver', () => {
  it('steers at random times with interrupts: every receipt settles once, 0 lost, 0 doubled', { timeout: 120_000 }, async () => {
    let seed = 11
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const park = parkTool({ releaseAfterMs: () => Math.floor(random() * 60) })
    const wire = wireQuery()
    current = await driverHarness({ plugins: [park.plugin], driver: { query: wire.query } })
    const session = await current.kernel.startSession()

    const receipts: { text: string; receipt: SteerReceipt; settled: number; outcome?: SteerOutcome }[] = []
    let steering = true
    // At most 60 steers: on a slow machine the turns last longer, and an unbounded loop would steer ever more.
    const steerLoop = (async () => {
      for (let n = 0; steering && n < 60; n++) {
        await new Promise((resolve) => setTimeout(resolve, 15 + random() * 90))
        if (!steering) break
        const text = `STRESS-STEER-${n}`
        const entry: (typeof receipts)[number] = { text, receipt: session.steer(text), settled: 0 }
        entry.receipt.then(
          (outcome) => {
            entry.settled++
            entry.outcome = outcome
          },
          () => {
            entry.settled++
          },
        )
        receipts.push(entry)
      }
    })()

    const statuses: string[] = []
    // Which turns are interrupted is fixed (the shared random draws depend on timing); each is interrupted while its
    // first call is parked, so it ends `interrupted` whatever the machine's speed, with steers in flight around it.
    const interrupted = new Set([1, 4, 6])
    for (let turn = 0; turn < 8; turn++) {
      const prompt =
        random() < 0.5
          ? `Turn ${turn} ${parkDirective(`${turn}a`)} ${parkDirective(`${turn}b`)}`
          : `Turn ${turn} ${parkBatch(`${turn}a`, `${turn}b`)}`
      const firstCall = park.calls.length
      const running = session.run(prompt)
      if (interrupted.has(turn)) void park.parked(firstCall).then(() => session.interrupt('stress interrupt'))
      statuses.push((await running).status)
      await session.idle()
    }
    steering = false
    await steerLoop
    // Whatever is still queued (after an interrupt, nothing starts by itself) goes with one last turn.
    await session.run('Drain')
    await session.idle()
    await waitUntil(() => receipts.every((entry) => entry.settled > 0), 'every receipt to settle', { boundMs: 60_000 })

    // Steers over 8 turns (60 at most), 3 of them interrupted.
    expect(receipts.length).toBeGreaterThan(20)
    expect(statuses.filter((status) => status === 'interrupted')).toHaveLength(interrupted.size)
    expect(statuses.filter((status) => status === 'completed')).toHaveLength(8 - interrupted.size)
    for (const entry of receipts) {
      expect(entry.settled, entry.text).toBe(1)
      expect(entry.outcome?.state, entry.text).toBe('recorded')
    }
    const logged = readLog(session.transcriptPath).flatMap((event) =>
      event.type === 'message' && event.message.source.kind === 'steering'
        ? event.message.content.map((block) => (block.type === 'text' ? block.text : ''))
        : [],
    )
    expect([...logged].sort()).toEqual(receipts.map((entry) => entry.text).sort())
    // What the model saw: Claude Code's own history in its last request holds each steer exactly once.
    const history = JSON.stringify(current.server.requests.at(-1)?.body.messages)
    const times = (text: string) => history.match(new RegExp(`${text}(?!\\d)`, 'g'))?.length ?? 0
    for (const entry of receipts) expect(times(entry.text), entry.text).toBe(1)
    expect(wire.sent.every((message) => message.priority === undefined || message.priority === 'next')).toBe(true)
  })
})
