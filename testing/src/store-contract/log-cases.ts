import { SESSION_STORE_SPEC, type SessionEventBody } from '@harness-kernel/kernel'
import { expect, it } from 'vitest'
import { expectKernelError, type StoreFixture, sessionId, sessionStart, turn, userMessage } from './fixture.js'

/** The log: numbered appends that load back as they were written, across close and reopen. */
export function logCases(fixture: StoreFixture): void {
  it(`declares ${SESSION_STORE_SPEC}`, () => {
    expect(fixture.store.specificationVersion).toBe(SESSION_STORE_SPEC)
  })

  it('numbers appends from 1 and loads them back as appended, once synced and after close', async () => {
    const id = sessionId('round-trip')
    const { store } = fixture
    const { log } = await fixture.create(id)
    expect(log.path).toBe(store.pathFor(id))
    const bodies: SessionEventBody[] = [
      sessionStart(id, '/work/project', '2026-01-02T03:04:05.000Z'),
      ...turn('t1', 'first prompt'),
      {
        type: 'tool/call',
        turnId: 't1',
        step: 1,
        callId: 'c1',
        name: 'shell',
        input: { command: 'ls', nested: [1, null] },
        decision: 'allow',
      },
      { type: 'tool/result', turnId: 't1', step: 1, callId: 'c1', output: 'a\nb "quoted" ünïcode', isError: false },
      { type: 'notice', level: 'warning', text: 'careful', source: 'test' },
    ]
    const appended = bodies.map((body) => log.append(body))
    expect(appended.map((event) => event.seq)).toEqual(bodies.map((_, index) => index + 1))
    for (const [index, event] of appended.entries()) {
      expect(event).toEqual({ ...bodies[index], v: 1, seq: index + 1, at: expect.any(String) })
      expect(Number.isNaN(Date.parse(event.at))).toBe(false)
    }
    await log.sync()
    expect(await store.load(id)).toEqual({ events: appended, droppedTail: undefined })
    await log.close()
    expect(await store.load(id)).toEqual({ events: appended, droppedTail: undefined })
  })

  it('syncs a log with nothing appended, and loads a created session with no events', async () => {
    const id = sessionId('empty')
    const { log } = await fixture.create(id)
    await log.sync()
    await log.close()
    expect(await fixture.store.load(id)).toEqual({ events: [], droppedTail: undefined })
  })

  it('refuses to append to a closed log, and never calls onLost on a log that was only closed', async () => {
    const { log } = await fixture.create(sessionId('closed'))
    const lost: Error[] = []
    log.onLost((error) => lost.push(error))
    log.append({ type: 'turn/start', turnId: 't1' })
    await log.close()
    expect(() => log.append({ type: 'turn/end', turnId: 't1', status: 'completed' })).toThrow(
      expect.objectContaining({ name: 'KernelError' }),
    )
    expect(lost).toEqual([])
  })

  it('refuses to create a session that exists', async () => {
    const id = sessionId('twice')
    const { lock, log } = await fixture.create(id)
    log.append(sessionStart(id, '/p', '2026-01-02T00:00:00.000Z'))
    await log.close()
    await expectKernelError(fixture.store.create(id, lock), id)
    expect((await fixture.store.load(id)).events).toHaveLength(1)
  })

  it('refuses to load a session that does not exist, saying so', async () => {
    const id = sessionId('missing')
    await expectKernelError(fixture.store.load(id), /does not exist/)
    await expectKernelError(fixture.store.load(id), id)
  })

  it('reopens a log after load: appends continue its sequence numbers', async () => {
    const id = sessionId('reopen')
    const first = await fixture.seed(id, [sessionStart(id, '/p', '2026-01-02T00:00:00.000Z'), { type: 'turn/start', turnId: 't1' }])
    const lock = await fixture.lock(id)
    const loaded = await fixture.store.load(id)
    expect(loaded.events).toEqual(first)
    const log = await fixture.reopen(id, loaded.events.at(-1)?.seq ?? 0, lock)
    expect(log.path).toBe(fixture.store.pathFor(id))
    const more = [
      log.append({ type: 'message', turnId: 't1', message: userMessage('again') }),
      log.append({ type: 'turn/end', turnId: 't1', status: 'interrupted', reason: 'the process ended before the turn finished' }),
    ]
    expect(more.map((event) => event.seq)).toEqual([3, 4])
    await log.close()
    expect((await fixture.store.load(id)).events).toEqual([...first, ...more])
  })
}
