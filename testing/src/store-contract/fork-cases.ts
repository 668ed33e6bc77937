import type { SessionEvent } from '@harness-kernel/kernel'
import { expect, it } from 'vitest'
import { expectKernelError, type StoreFixture, sessionId, sessionStart, userMessage } from './fixture.js'

/** What a fork copies: a new `session/start`, then the source's events through a turn, without its own lifecycle. */
export function forkCases(fixture: StoreFixture): void {
  /** Two turns, the second still open; the source's end, resume and a driver's native id in between. */
  const seedSource = async () => {
    const id = sessionId('source')
    const events = await fixture.seed(id, [
      sessionStart(id, '/work/source', '2026-01-01T00:00:00.000Z'),
      { type: 'turn/start', turnId: 't1' },
      { type: 'driver/session', driver: 'claude-code', nativeId: 'native-1' },
      { type: 'message', turnId: 't1', message: userMessage('one') },
      { type: 'turn/end', turnId: 't1', status: 'completed' },
      { type: 'session/end', reason: 'other' },
      { type: 'session/resume', sessionId: id },
      { type: 'turn/start', turnId: 't2' },
      { type: 'message', turnId: 't2', message: userMessage('two') },
    ])
    return { id, events }
  }
  /** The source's events a fork copies, renumbered from 2 as the fork has them. */
  const copied = (events: SessionEvent[]) =>
    events
      .filter((event) => !['session/start', 'session/resume', 'session/end', 'driver/session'].includes(event.type))
      .map((event, index) => ({ ...event, seq: index + 2 }))

  it('copies through the end of a turn: a session/start with forkedFrom, then the events, renumbered, times kept', async () => {
    const { store } = fixture
    const source = await seedSource()
    const fork = sessionId('fork')
    await store.fork(source.id, fork, { throughTurnId: 't1' })
    const [start, ...rest] = (await store.load(fork)).events
    expect(start).toEqual({
      v: 1,
      seq: 1,
      at: expect.any(String),
      type: 'session/start',
      sessionId: fork,
      cwd: '/work/source',
      createdAt: expect.any(String),
      forkedFrom: { sessionId: source.id, turnId: 't1' },
    })
    expect(rest).toEqual(copied(source.events.slice(0, 5)))
    expect(rest.map((event) => event.type)).toEqual(['turn/start', 'message', 'turn/end'])
    expect(await store.summary(fork)).toMatchObject({
      id: fork,
      cwd: '/work/source',
      forkedFrom: source.id,
      turns: 1,
      firstPrompt: 'one',
      ended: false,
    })
    expect((await store.load(source.id)).events).toEqual(source.events)
  })

  it('copies the whole log without a turn, a turn still open included', async () => {
    const source = await seedSource()
    const fork = sessionId('whole')
    await fixture.store.fork(source.id, fork)
    const [start, ...rest] = (await fixture.store.load(fork)).events
    expect(start).toMatchObject({ seq: 1, type: 'session/start', sessionId: fork, forkedFrom: { sessionId: source.id } })
    expect(start?.type === 'session/start' && start.forkedFrom?.turnId).toBeUndefined()
    expect(rest).toEqual(copied(source.events))
    expect(rest.map((event) => event.type)).toEqual(['turn/start', 'message', 'turn/end', 'turn/start', 'message'])
  })

  it('a fork is a session of its own: locked, loaded and reopened, its sequence goes on', async () => {
    const source = await seedSource()
    const fork = sessionId('continued')
    await fixture.store.fork(source.id, fork, { throughTurnId: 't1' })
    const lock = await fixture.lock(fork)
    const { events } = await fixture.store.load(fork)
    const log = await fixture.reopen(fork, events.at(-1)?.seq ?? 0, lock)
    expect(log.append({ type: 'session/resume', sessionId: fork }).seq).toBe(events.length + 1)
    await log.close()
    expect((await fixture.store.load(fork)).events).toHaveLength(events.length + 1)
  })

  it('refuses a turn that has not ended or does not exist, an existing target and a missing source, creating nothing', async () => {
    const { store } = fixture
    const source = await seedSource()
    const target = sessionId('refused')
    await expectKernelError(store.fork(source.id, target, { throughTurnId: 't2' }), 't2')
    await expectKernelError(store.fork(source.id, target, { throughTurnId: 'no-such-turn' }), 'no-such-turn')
    const missing = sessionId('missing')
    await expectKernelError(store.fork(missing, target), missing)
    await expectKernelError(store.load(target), /does not exist/)
    const taken = await seedSource()
    await expectKernelError(store.fork(source.id, taken.id), taken.id)
    expect((await store.load(taken.id)).events).toEqual(taken.events)
    expect((await store.load(source.id)).events).toEqual(source.events)
  })
}
