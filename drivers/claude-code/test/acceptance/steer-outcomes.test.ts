import type { HookCallback } from '@anthropic-ai/claude-agent-sdk'
import { waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import type { ClaudeCodeDriverOptions } from '../../src/index.js'
import { type DriverHarness, driverHarness, readLog } from '../support/driver-harness.js'
import { foldVerdict } from '../support/fold.js'
import { parkBatch, parkDirective, parkTool } from '../support/park-tool.js'
import { type WireOptions, wireQuery } from '../support/wire.js'

// Observed against Claude Code 2.1.332 (Agent SDK 0.3.332), and again 2.1.336 (0.3.336).
let current: DriverHarness | undefined
afterEach(async () => {
  await current?.dispose()
  current = undefined
})

async function setup(options: { wire?: WireOptions; driver?: ClaudeCodeDriverOptions } = {}) {
  const park = parkTool()
  const wire = wireQuery(options.wire)
  current = await driverHarness({ plugins: [park.plugin], driver: { query: wire.query, ...options.driver } })
  const session = await current.kernel.startSession()
  return { park, wire, session, server: current.server }
}

const texts = (events: ReturnType<typeof readLog>) =>
  events.flatMap((event) =>
    event.type === 'message' && event.message.source.kind === 'steering'
      ? event.message.content.map((block) => (block.type === 'text' ? block.text : ''))
      : [],
  )

describe('drivers.md §4 item 5: a steer blocked by Claude Code’s own UserPromptSubmit', () => {
  it('is dropped, not accepted; its sibling is recorded; the blocked text never reaches the model', async () => {
    const block: HookCallback = async (input) =>
      String((input as { prompt?: string }).prompt).includes('BLOCK-ME') ? { decision: 'block', reason: 'UPS-BLOCKED-STEER' } : {}
    const { park, wire, session, server } = await setup({ driver: { queryOptions: { hooks: { UserPromptSubmit: [{ hooks: [block] }] } } } })
    const running = session.run(`Steer here ${parkDirective('s')}`)
    const call = await park.parked(0)
    const kept = session.steer('STEER kept')
    const blocked = session.steer('STEER BLOCK-ME')
    call.release()
    const result = await running
    expect(result.status).toBe('completed')
    await expect(kept).resolves.toMatchObject({ state: 'recorded' })
    await expect(blocked).resolves.toMatchObject({ state: 'dropped', reason: expect.stringContaining('UPS-BLOCKED-STEER') })
    expect(server.requests.some((request) => JSON.stringify(request.body.messages).includes('BLOCK-ME'))).toBe(false)
    expect(foldVerdict(server, wire, 'STEER kept').folded).toBe(true)
    // The informational frame follows the blocked steer's `started`. Claude Code 2.1.332 sends it right after the
    // steer's `completed` (`started`, `completed`, informational: 4 of 4 runs), not between the two as drivers.md §1.1 has it.
    const uuid = wire.sent.find((message) => (message.message as { content?: unknown }).content === 'STEER BLOCK-ME')?.uuid
    const at = (state: string) => wire.received.findIndex((frame) => frame.command_uuid === uuid && frame.state === state)
    const info = wire.received.findIndex((frame) => frame.subtype === 'informational' && JSON.stringify(frame).includes('blocked_by_hook'))
    expect(at('started')).toBeLessThan(info)
    expect(info).toBeGreaterThan(at('completed'))
    expect(info - at('completed')).toBeLessThanOrEqual(2)
    const log = readLog(session.transcriptPath)
    expect(texts(log)).toEqual(['STEER kept'])
    const accepted = log.find((event) => event.type === 'steering/accepted' && event.boundary === 'tool')
    expect(accepted).toMatchObject({ itemIds: kept.itemIds, droppedIds: blocked.itemIds })
  })
})

describe('drivers.md §4 item 6: no `queued` receipt by the deadline', () => {
  it('cancelAsyncMessage answers true: the steer is returned, the result released, and it is delivered once in the next turn', async () => {
    const { park, wire, session, server } = await setup({ wire: { withholdQueued: true }, driver: { admissionTimeoutMs: 300 } })
    const running = session.run(`Withheld ${parkDirective('w')}`)
    const call = await park.parked(0)
    const receipt = session.steer('STEER withheld')
    call.release()
    const first = await running
    expect(first.status).toBe('completed')
    expect(wire.cancels).toHaveLength(1)
    await session.idle()
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    const log = readLog(session.transcriptPath)
    expect(log.some((event) => event.type === 'notice' && event.text.startsWith('steering/returned'))).toBe(true)
    expect(texts(log)).toEqual(['STEER withheld'])
    // Delivered once: the last request's history holds it exactly once, as the next turn's prompt.
    const history = JSON.stringify(server.requests.at(-1)?.body.messages)
    expect(history.split('STEER withheld').length - 1).toBe(1)
    expect(wire.results()).toHaveLength(2)
  })

  it('a non-true answer, from a Claude Code without lifecycle_idle_v1: the turn ends with steering/ambiguous and nothing is delivered twice', async () => {
    const { park, wire, session, server } = await setup({
      wire: { withholdQueued: true, cancelAnswer: () => false, withoutLifecycleIdle: true },
      driver: { admissionTimeoutMs: 300 },
    })
    const running = session.run(`Ambiguous ${parkDirective('a')}`)
    const call = await park.parked(0)
    const receipt = session.steer('STEER ambiguous')
    call.release()
    const result = await running
    expect(result.status).toBe('failed')
    expect(result.error).toMatch(/^steering\/ambiguous/)
    await expect(receipt).resolves.toMatchObject({ state: 'dropped', reason: expect.stringContaining('ambiguous') })
    await session.idle()
    const log = readLog(session.transcriptPath)
    expect(log.some((event) => event.type === 'notice' && event.level === 'error' && event.text.startsWith('steering/ambiguous'))).toBe(
      true,
    )
    const seen = server.requests.filter((request) => JSON.stringify(request.body.messages).includes('STEER ambiguous'))
    expect(seen.length).toBeLessThanOrEqual(1)
    expect(wire.results()).toHaveLength(1)
  })
})

describe('drivers.md §4 item 6, with lifecycle_idle_v1 (Claude Code 2.1.336)', () => {
  it('a non-true answer, then Claude Code reports the steer `cancelled` before it ran: it is returned and delivered once in the next turn', async () => {
    const { park, wire, session, server } = await setup({
      wire: { withholdQueued: true, cancelAnswer: () => false },
      driver: { admissionTimeoutMs: 300 },
    })
    const running = session.run(`Ambiguous ${parkDirective('a')}`)
    const call = await park.parked(0)
    const receipt = session.steer('STEER ambiguous')
    call.release()
    const result = await running
    expect(result.status).toBe('completed')
    await session.idle()
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    const log = readLog(session.transcriptPath)
    expect(log.some((event) => event.type === 'notice' && event.level === 'error')).toBe(false)
    expect(log.some((event) => event.type === 'notice' && event.text.startsWith('steering/returned'))).toBe(true)
    const history = JSON.stringify(server.requests.at(-1)?.body.messages)
    expect(history.split('STEER ambiguous').length - 1).toBe(1)
    expect(wire.results()).toHaveLength(2)
  })
})

describe('drivers.md §4 item 7: input while the model streams its final answer', () => {
  it('is submitted at once and admitted; Claude Code runs it after the answer and the kernel turn keeps that follow-up, once', async () => {
    const { wire, session, server } = await setup()
    const running = session.run('Stream please [[stream:8:60]]')
    await waitUntil(() => server.events.some((event) => event.ev === 'start'), 'the stream to start', { boundMs: 60_000 })
    const receipt = session.steer('STEER during the stream')
    const result = await running
    expect(result.status).toBe('completed')
    // Recorded within the turn, not by a next one.
    expect(receipt.state()).toBe('recorded')
    const steer = wire.sent.find((message) => (message.message as { content?: unknown }).content === 'STEER during the stream')
    expect(steer).toMatchObject({ priority: 'next', uuid: expect.any(String) })
    expect(steer).not.toHaveProperty('origin')
    // Two of Claude Code's turns (the answer, then the follow-up it ran by itself), one kernel turn.
    expect(wire.results()).toHaveLength(2)
    expect(wire.results()[1]).toMatchObject({ user_message_uuids: [steer!.uuid] })
    const log = readLog(session.transcriptPath)
    expect(log.filter((event) => event.type === 'turn/start')).toHaveLength(1)
    expect(log.filter((event) => event.type === 'turn/end')).toHaveLength(1)
    expect(texts(log)).toEqual(['STEER during the stream'])
    const accepted = log.find((event) => event.type === 'steering/accepted')
    expect(accepted).toMatchObject({ itemIds: receipt.itemIds })
    const second = server.requests.at(-1)
    expect(JSON.stringify(second?.body.messages?.at(-1))).toContain('STEER during the stream')
    expect(JSON.stringify(second?.body.messages).split('STEER during the stream').length - 1).toBe(1)
    expect(server.requests).toHaveLength(2)
  })
})

describe('drivers.md §4 item 9: session.interrupt() while a kernel tool is parked', () => {
  it('sends interrupt({cancelQueued:true}), returns the cancelled steers to the kernel queue, starts no turn, and the session goes on', async () => {
    const { park, wire, session, server } = await setup()
    const running = session.run(`Interrupt me ${parkBatch('a', 'b')}`)
    const first = await park.parked(0)
    const receipt = session.steer('STEER queued before the interrupt')
    first.release()
    const second = await park.parked(1)
    // The steer is now queued inside Claude Code, waiting for the batch to end.
    expect(wire.received.some((frame) => frame.type === 'command_lifecycle' && frame.state === 'queued')).toBe(true)
    const requestsBefore = server.requests.length
    session.interrupt()
    const result = await running
    expect(result.status).toBe('interrupted')
    expect(second.signal.aborted).toBe(true)
    expect(wire.interrupts).toEqual([{ cancelQueued: true }])
    expect(receipt.state()).toBe('returned')

    // The same Claude Code process takes the next turn; the returned steer goes with it, once. No turn started in
    // between: every request after the interrupt is the next turn's, and its result is the second.
    const next = await session.run('After the interrupt')
    expect(next.status).toBe('completed')
    const after = server.requests.slice(requestsBefore)
    expect(after.length).toBeGreaterThan(0)
    for (const request of after) expect(JSON.stringify(request.body.messages)).toContain('After the interrupt')
    expect(wire.results()).toHaveLength(2)
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    expect(wire.queries).toBe(1)
    const history = JSON.stringify(server.requests.at(-1)?.body.messages)
    expect(history.split('STEER queued before the interrupt').length - 1).toBe(1)
  })
})
