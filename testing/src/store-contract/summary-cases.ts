import type { SessionSummary } from '@harness-kernel/kernel'
import { expect, it } from 'vitest'
import { assistantMessage, expectKernelError, type StoreFixture, sessionId, sessionStart, turn, userMessage } from './fixture.js'

const byId = (summaries: SessionSummary[]) => [...summaries].sort((a, b) => a.id.localeCompare(b.id))

/** What `list` and `summary` make of a log, and the name and archived flag kept beside it. */
export function summaryCases(fixture: StoreFixture): void {
  it('lists nothing in an empty store', async () => {
    expect(await fixture.store.list()).toEqual([])
  })

  it('summarizes sessions from their events: cwd, times, turns, end, first prompt, parent', async () => {
    const { store } = fixture
    const main = sessionId('main')
    const child = sessionId('child')
    const mainEvents = await fixture.seed(main, [
      sessionStart(main, '/work/main', '2026-01-02T00:00:00.000Z'),
      { type: 'message', message: assistantMessage('not a prompt') },
      ...turn('t1', 'first prompt'),
      ...turn('t2', 'second prompt'),
      { type: 'session/end', reason: 'other' },
    ])
    const childEvents = await fixture.seed(child, [
      {
        type: 'session/start',
        sessionId: child,
        cwd: '/work/main/sub',
        createdAt: '2026-01-02T00:01:00.000Z',
        parent: { sessionId: main, agentId: 'agent-1', agentType: 'explorer', turnId: 't2', callId: 'call-1' },
      },
      { type: 'turn/start', turnId: 'c1' },
      { type: 'message', turnId: 'c1', message: userMessage('look around') },
    ])
    const mainSummary: SessionSummary = {
      id: main,
      path: store.pathFor(main),
      cwd: '/work/main',
      createdAt: '2026-01-02T00:00:00.000Z',
      updatedAt: mainEvents.at(-1)?.at,
      turns: 2,
      ended: true,
      firstPrompt: 'first prompt',
      name: undefined,
      archived: false,
      forkedFrom: undefined,
      parent: undefined,
    }
    const childSummary: SessionSummary = {
      id: child,
      path: store.pathFor(child),
      cwd: '/work/main/sub',
      createdAt: '2026-01-02T00:01:00.000Z',
      updatedAt: childEvents.at(-1)?.at,
      turns: 1,
      ended: false,
      firstPrompt: 'look around',
      name: undefined,
      archived: false,
      forkedFrom: undefined,
      parent: { sessionId: main, agentId: 'agent-1', agentType: 'explorer' },
    }
    expect(await store.summary(main)).toEqual(mainSummary)
    expect(await store.summary(child)).toEqual(childSummary)
    expect(byId(await store.list())).toEqual(byId([mainSummary, childSummary]))
  })

  it('summarizes a session whose log has no events yet', async () => {
    const id = sessionId('blank')
    const { log } = await fixture.create(id)
    await log.sync()
    expect(await fixture.store.summary(id)).toMatchObject({ id, path: fixture.store.pathFor(id), turns: 0, ended: false, archived: false })
    expect((await fixture.store.list()).map((summary) => summary.id)).toEqual([id])
  })

  it('names a session and clears the name, archives it and brings it back, without touching its log', async () => {
    const { store } = fixture
    const id = sessionId('named')
    const events = await fixture.seed(id, [sessionStart(id, '/p', '2026-01-02T00:00:00.000Z'), ...turn('t1', 'hello')])
    await store.setName(id, 'My session')
    expect(await store.summary(id)).toMatchObject({ name: 'My session', archived: false })
    await store.setArchived(id, true)
    expect(await store.summary(id)).toMatchObject({ name: 'My session', archived: true })
    expect(await store.list()).toEqual([await store.summary(id)])
    await store.setName(id, 'Renamed')
    await store.setArchived(id, false)
    expect(await store.summary(id)).toMatchObject({ name: 'Renamed', archived: false })
    await store.setName(id, undefined)
    expect(await store.summary(id)).toMatchObject({ name: undefined, archived: false, firstPrompt: 'hello', turns: 1 })
    expect((await store.load(id)).events).toEqual(events)
  })

  it('refuses to summarize, name or archive a session that does not exist', async () => {
    const id = sessionId('missing')
    await expectKernelError(fixture.store.summary(id), id)
    await expectKernelError(fixture.store.setName(id, 'x'), id)
    await expectKernelError(fixture.store.setArchived(id, true), id)
    expect(await fixture.store.list()).toEqual([])
  })
}
