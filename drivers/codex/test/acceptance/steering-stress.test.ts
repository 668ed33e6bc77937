import type { SteerOutcome, SteerReceipt } from '@harness-kernel/kernel'
import { userTexts, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type CodexHarness, codexHarness, readLog } from '../support/driver-harness.js'
import { parkBatch, parkDirective, parkTool } from '../support/park-tool.js'
import { wireLog } from '../support/wire.js'

// Observed against Codex 0.169.0 (`codex app-server`).
let current: CodexHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

describe('steering stress on the Codex driver', () => {
  it('steers at random times (parked tools, parallel calls, streaming) with interrupts: every receipt settles once, 0 lost, 0 doubled', {
    timeout: 90_000,
  }, async () => {
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const park = parkTool({ releaseAfterMs: () => Math.floor(random() * 80) })
    const wire = wireLog()
    current = await codexHarness({ plugins: [park.plugin], driver: { onProtocolMessage: wire.onProtocolMessage } })
    const session = await current.kernel.startSession()

    const receipts: { text: string; receipt: SteerReceipt; settled: number; outcome?: SteerOutcome }[] = []
    const steer = () => {
      const text = `STRESS-STEER-${receipts.length}`
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

    // Bursts of steers at random times in each turn. Continuous steering would starve a streamed answer: every
    // steer makes Codex drop the response in flight and sample again (observed), so each turn's burst ends.
    const statuses: string[] = []
    const timers: NodeJS.Timeout[] = []
    let unfired = 0
    // Which turns are interrupted is fixed, and each is interrupted while its first call is parked, so it ends
    // `interrupted` whatever the machine's speed (a timer could fire after the turn, or in the next one).
    const interrupted = new Set([2, 6, 10])
    for (let turn = 0; turn < 14; turn++) {
      const pick = interrupted.has(turn) ? 0 : random()
      const prompt =
        pick < 0.35
          ? `Turn ${turn} ${parkDirective(`${turn}a`)} ${parkDirective(`${turn}b`)}`
          : pick < 0.7
            ? `Turn ${turn} ${parkBatch(`${turn}a`, `${turn}b`)}`
            : `Turn ${turn} [[stream:6:40]]`
      const firstCall = park.calls.length
      const running = session.run(prompt)
      for (let k = Math.floor(random() * 6); k > 0; k--) {
        unfired++
        timers.push(
          setTimeout(() => {
            unfired--
            steer()
          }, random() * 350),
        )
      }
      if (interrupted.has(turn)) void park.parked(firstCall).then(() => session.interrupt('stress interrupt'))
      statuses.push((await running).status)
      await session.idle()
    }
    await waitUntil(() => unfired === 0, 'the last steers of the bursts', { boundMs: 60_000 })
    // Whatever is still queued (after an interrupt, nothing starts by itself) goes with one last turn.
    await session.run('Drain')
    await session.idle()

    expect(receipts.length).toBeGreaterThan(15)
    expect(statuses.filter((status) => status === 'interrupted')).toHaveLength(interrupted.size)
    expect(statuses.filter((status) => status === 'completed')).toHaveLength(14 - interrupted.size)
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
    // What the model saw: the thread's history in Codex's last request holds each steer exactly once.
    const history = userTexts(current.server.requests.at(-1) as (typeof current.server.requests)[number])
    for (const entry of receipts)
      expect(
        history.filter((text) => text === entry.text),
        entry.text,
      ).toHaveLength(1)
    // Every steer Codex recorded came back as a userMessage receipt exactly once.
    const clientIds = wire.completed('userMessage').map((item) => item.clientId)
    for (const entry of receipts) {
      const id = entry.receipt.itemIds[0]
      expect(clientIds.filter((clientId) => clientId === id).length, entry.text).toBeLessThanOrEqual(1)
    }
    console.info(
      `stress: ${receipts.length} steers over ${statuses.length} turns (${statuses.join(', ')}); turn/steer sent ${wire.sent('turn/steer').length}, refused ${
        wire.sent('turn/steer').filter((steer) => wire.answerTo(steer.id)?.error).length
      }`,
    )
  })
})
