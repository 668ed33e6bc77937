import { gate, newInput, type RecordedRequest, type Reply, waitUntil } from '@harness-kernel/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { ClaudeSession, isResult, type Seen } from './support/claude-session.js'
import { type DriverHarness, driverHarness, readLog } from './support/driver-harness.js'
import { type WireOptions, wireQuery } from './support/wire.js'

/**
 * `idle` on `command_lifecycle` `cancelled` (Claude Code 2.1.336, Agent SDK 0.3.336; capability `lifecycle_idle_v1`):
 * as the frame is written no turn is under way and nothing that would start one is queued, held or taken, so no
 * `result` is owed. Observed against the real program (each case alike in 3 of 3 runs, then in every run of the
 * suite): the cases below, and the driver's use of it.
 */

const FIRST = 'FIRST prompt'

let session: ClaudeSession | undefined
let current: DriverHarness | undefined
afterEach(async () => {
  await session?.close()
  session = undefined
  await current?.dispose()
  current = undefined
})

/** The first prompt's answer streams until `answer` opens; any other request gets a short text. */
function heldFirstAnswer() {
  const answer = gate()
  const script = (request: RecordedRequest): Reply =>
    newInput(request).some((text) => text.includes(FIRST))
      ? { text: ['part one, ', 'part two'], heldUntil: answer.opened }
      : { text: `reply to request #${request.n}` }
  return { answer, script }
}

const frameOf = (seen: Seen, uuid: string, state: string) => seen.kind === 'frame' && seen.uuid === uuid && seen.state === state

describe('the real Claude Code, `idle` on a `cancelled` frame', () => {
  it('advertises lifecycle_idle_v1; a steer cancelled while the answer streams is cancelled without idle', {
    timeout: 60_000,
  }, async () => {
    const { answer, script } = heldFirstAnswer()
    session = await ClaudeSession.start({ server: { script } })
    session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    await session.frame(steer, 'queued')
    expect(await session.cancel(steer)).toBe(true)
    const cancelled = await session.frame(steer, 'cancelled')
    answer.open()
    await session.result(1)
    const init = session.seen.find((seen) => seen.kind === 'message' && seen.message.subtype === 'init')
    expect(init).toMatchObject({ message: { claude_code_version: '2.1.336', capabilities: expect.arrayContaining(['lifecycle_idle_v1']) } })
    expect(session.seen[cancelled]).not.toHaveProperty('idle')
  })

  it('after an interrupt with cancelQueued: the swept steer has no idle; the prompt is cancelled after the result, idle', {
    timeout: 60_000,
  }, async () => {
    const { script } = heldFirstAnswer()
    session = await ClaudeSession.start({ server: { script } })
    const prompt = session.send(FIRST)
    await (await session.server.waitForRequest(0)).held
    const steer = session.send('STEER one', 'next')
    await session.frame(steer, 'queued')
    await session.interrupt()
    const result = await session.result(1)
    const swept = await session.frame(steer, 'cancelled')
    const promptCancelled = await session.frame(prompt, 'cancelled')
    expect(result.result).toMatchObject({ subtype: 'error_during_execution' })
    expect(swept).toBeLessThan(result.index)
    expect(session.seen[swept]).not.toHaveProperty('idle')
    expect(promptCancelled).toBeGreaterThan(result.index)
    expect(session.seen[promptCancelled]).toMatchObject({ idle: true })
    expect(session.count((seen) => frameOf(seen, prompt, 'completed'))).toBe(0)
  })

  it('a message whose cancel overtook it (answered false) is cancelled when the queue would start it, idle, and no result follows', {
    timeout: 60_000,
  }, async () => {
    // The first prompt waits for the initialize answer, so a cancel sent with it is read first.
    session = await ClaudeSession.start({ server: { script: () => ({ text: 'never asked' }) } })
    const prompt = session.send(FIRST)
    expect(await session.cancel(prompt)).toBe(false)
    const cancelled = await session.frame(prompt, 'cancelled')
    expect(session.seen[cancelled]).toMatchObject({ idle: true })
    expect(session.count((seen) => frameOf(seen, prompt, 'started'))).toBe(0)
    expect(session.count(isResult)).toBe(0)
    expect(session.server.requests).toHaveLength(0)
  })
})

/** A kernel on the driver whose steers reach Claude Code only after the driver's cancel for them was answered. */
async function lateReader(wire: WireOptions) {
  const { answer, script } = heldFirstAnswer()
  const tapped = wireQuery({ deliverNextAfterCancel: true, ...wire })
  current = await driverHarness({ server: { script }, driver: { query: tapped.query, admissionTimeoutMs: 300 } })
  const kernelSession = await current.kernel.startSession()
  const running = kernelSession.run(FIRST)
  await (await current.server.waitForRequest(0)).held
  const receipt = kernelSession.steer('STEER late')
  const uuid = () => tapped.sent.find((message) => (message.message as { content?: unknown }).content === 'STEER late')?.uuid
  // The cancel was answered (false: Claude Code had not read the steer), then Claude Code read and queued it.
  await waitUntil(
    () => tapped.received.some((frame) => frame.command_uuid === uuid() && frame.state === 'queued'),
    'the late steer queued',
    {
      boundMs: 30_000,
    },
  )
  answer.open()
  return { wire: tapped, session: kernelSession, running, receipt, uuid: uuid() as string }
}

const noticeTexts = (path: string) => readLog(path).flatMap((event) => (event.type === 'notice' ? [`${event.level}: ${event.text}`] : []))

describe('the driver, a steer whose cancel overtook it', () => {
  it('with lifecycle_idle_v1: Claude Code cancels it once its queue would start it, says idle, and the turn ends there; the steer goes to the next turn once', {
    timeout: 60_000,
  }, async () => {
    const { wire, session, running, receipt, uuid } = await lateReader({})
    const first = await running
    expect(wire.cancels).toEqual([uuid])
    expect(first.status).toBe('completed')
    // The turn ended at the idle frame, not at the 10 s follow-up watchdog.
    const cancelled = wire.received.find((frame) => frame.command_uuid === uuid && frame.state === 'cancelled')
    expect(cancelled).toMatchObject({ idle: true })
    const notices = noticeTexts(session.transcriptPath)
    expect(notices.some((text) => text.includes('did not start the steering input'))).toBe(false)
    expect(notices.some((text) => text.startsWith('warning: steering/returned: Claude Code cancelled steering item'))).toBe(true)
    expect(notices.some((text) => text.startsWith('error:'))).toBe(false)
    // Returned to its source, it joins the next turn's prompt: delivered once.
    await session.idle()
    await expect(receipt).resolves.toMatchObject({ state: 'recorded' })
    const steered = current!.server.requests.filter((request) => newInput(request).some((text) => text.includes('STEER late')))
    expect(steered).toHaveLength(1)
    expect(wire.results()).toHaveLength(2)
  })

  it('a Claude Code without lifecycle_idle_v1: the steer stays ambiguous and the turn fails with steering/ambiguous', {
    timeout: 60_000,
  }, async () => {
    const { wire, session, running, receipt, uuid } = await lateReader({ withoutLifecycleIdle: true })
    const first = await running
    expect(wire.cancels).toEqual([uuid])
    expect(first.status).toBe('failed')
    expect(first.error).toMatch(/^steering\/ambiguous/)
    await expect(receipt).resolves.toMatchObject({ state: 'dropped', reason: expect.stringContaining('ambiguous') })
    expect(noticeTexts(session.transcriptPath).some((text) => text.startsWith('error: steering/ambiguous'))).toBe(true)
  })
})
