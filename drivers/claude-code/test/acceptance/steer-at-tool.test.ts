import type { SteerReceipt } from '@harness-kernel/kernel'
import { afterEach, describe, expect, it } from 'vitest'
import { type DriverHarness, driverHarness, readLog } from '../support/driver-harness.js'
import { foldVerdict } from '../support/fold.js'
import { parkBatch, parkDirective, parkTool } from '../support/park-tool.js'
import { type WireOptions, wireQuery } from '../support/wire.js'

// Observed against Claude Code 2.1.332 (Agent SDK 0.3.332).
let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

async function setup(options: { parallel?: boolean; wire?: WireOptions } = {}) {
  const park = parkTool({ parallel: options.parallel ?? false })
  const wire = wireQuery(options.wire)
  current = await driverHarness({ plugins: [park.plugin], driver: { query: wire.query } })
  const session = await current.kernel.startSession()
  return { park, wire, session, server: current.server }
}

describe('drivers.md §4 items 2, 3, 8, 14: a steer at a parked kernel tool folds into the same turn', () => {
  it('5 turns in a row: each steer is queued before its result is released, folds after the tool result, and is logged there once', async () => {
    const { park, wire, session, server } = await setup()
    for (let turn = 0; turn < 5; turn++) {
      const text = `STEER ${turn}: please also check the logs`
      const running = session.run(`Turn ${turn} ${parkDirective(`t${turn}`)}`)
      const call = await park.parked(turn)
      const receipt = session.steer(text)
      call.release()
      const result = await running
      await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
      expect(result.status).toBe('completed')

      // Item 2: the steer went out with a uuid, and its `queued` came before the tool result went back.
      const steer = wire.sent.find((message) => (message.message as { content?: unknown }).content === text)
      expect(steer?.uuid).toMatch(/^[0-9a-f-]{36}$/)
      const queuedAt = wire.received.findIndex(
        (frame) => frame.type === 'command_lifecycle' && frame.command_uuid === steer?.uuid && frame.state === 'queued',
      )
      const resultAt = wire.received.findIndex(
        (frame) => frame.type === 'user' && JSON.stringify(frame.message).includes(`parked t${turn} done`),
      )
      expect(queuedAt).toBeGreaterThanOrEqual(0)
      expect(queuedAt).toBeLessThan(resultAt)

      // Item 3: folded after the tool result, one result, listed in the turn's user_message_uuids.
      expect(foldVerdict(server, wire, text).folded).toBe(true)
      expect(wire.results()).toHaveLength(turn + 1)
      expect(wire.results()[turn]?.user_message_uuids).toContain(steer?.uuid)

      // Item 14: in the kernel log the steer comes right after the tool result, with the submitted text.
      const turnMessages = result.messages.map(
        (message) => `${message.role}:${message.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('|')}`,
      )
      expect(turnMessages).toEqual([
        `user:Turn ${turn} ${parkDirective(`t${turn}`)}`,
        'assistant:tool_call',
        'tool:tool_result',
        `user:${text}`,
        expect.stringMatching(/^assistant:FINAL reply/),
      ])
    }
    // Item 8: only `next`, never `now`, never an origin.
    const priorities = wire.sent.map((message) => message.priority).filter(Boolean)
    expect(new Set(priorities)).toEqual(new Set(['next']))
    expect(wire.sent.some((message) => 'origin' in message)).toBe(false)
    const log = readLog(session.transcriptPath)
    const steerMessages = log.filter((event) => event.type === 'message' && event.message.source.kind === 'steering')
    expect(steerMessages).toHaveLength(5)
  })

  it('two calls in one message, run one after the other: a steer admitted at the first folds after the last result', async () => {
    const { park, wire, session, server } = await setup()
    const running = session.run(`Two calls ${parkBatch('a', 'b')}`)
    const first = await park.parked(0)
    const receipt = session.steer('STEER with two calls')
    first.release()
    const second = await park.parked(1)
    second.release()
    await running
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    const verdict = foldVerdict(server, wire, 'STEER with two calls')
    expect(verdict).toMatchObject({ folded: true, results: 1, listed: true })
    expect((verdict.carrier as { content: { type: string }[] }).content.map((block) => block.type)).toEqual([
      'tool_result',
      'tool_result',
      'text',
    ])
  })

  it('two parallel-safe calls (readOnlyHint) park together; the steer folds after both results', async () => {
    const { park, wire, session, server } = await setup({ parallel: true })
    const running = session.run(`Two calls ${parkBatch('a', 'b')}`)
    const [first, second] = await Promise.all([park.parked(0), park.parked(1)])
    const receipt = session.steer('STEER with two parked')
    first.release()
    second.release()
    await running
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(foldVerdict(server, wire, 'STEER with two parked')).toMatchObject({ folded: true, results: 1, listed: true })
  })

  it('item 4, negative control: a transport that acknowledges before Claude Code has queued the steer makes the fold fail', async () => {
    const { park, wire, session, server } = await setup({ wire: { fakeQueuedDelayMs: 400 } })
    const running = session.run(`Race ${parkDirective('race')}`)
    const call = await park.parked(0)
    const receipt: SteerReceipt = session.steer('STEER released too early')
    call.release()
    await running
    await session.idle()
    await receipt.catch(() => undefined)
    const verdict = foldVerdict(server, wire, 'STEER released too early')
    // The assertion of item 3 fails: the steer missed the tool boundary and did not fold into the first turn.
    expect(verdict.folded && verdict.results === 1 && verdict.listed).toBe(false)
  })
})
