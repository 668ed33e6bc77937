import type { SessionEventBody } from '@harness-kernel/kernel'
import { describe, expect, it } from 'vitest'
import type * as AppServer from '../../../transports/app-server/src/fleet/fleet-port.js'
import type * as Store from '../src/index.js'
import { inboxStates, openThread, steerItem } from './support/fleet-threads.js'
import { useTestDatabase } from './support/test-database.js'

const database = useTestDatabase()

/** Type-level only (checked by `tsc -p tsconfig.tests.json`): the store's fleet is the App Server's port, structurally. */
export function assignable(fleet: Store.PostgresFleet): AppServer.FleetPort {
  const item: Store.InboxItem = {} as AppServer.InboxItem
  const itsItem: AppServer.InboxItem = item
  const state: Store.InboxState = {} as AppServer.InboxState
  const itsState: AppServer.InboxState = state
  const steer: Store.InboxSteerPayload = {} as AppServer.InboxSteerPayload
  const itsSteer: AppServer.InboxSteerPayload = steer
  const request: Store.RelayedRequest = {} as AppServer.RelayedRequest
  const itsRequest: AppServer.RelayedRequest = request
  const answer: Store.RelayedAnswer = {} as AppServer.RelayedAnswer
  const itsAnswer: AppServer.RelayedAnswer = answer
  const end: Store.RelayedEnd = {} as AppServer.RelayedEnd
  const itsEnd: AppServer.RelayedEnd = end
  void [itsItem, itsState, itsSteer, itsRequest, itsAnswer, itsEnd]
  return fleet
}

const steerMessage = (text: string, steeringItemId: string): SessionEventBody => ({
  type: 'message',
  turnId: 'turn-1',
  message: { role: 'user', content: [{ type: 'text', text }], source: { kind: 'steering', transport: 'fleet' }, meta: { steeringItemId } },
})

describe('the fleet’s inbox', () => {
  it('accept records an item once per id: a retry finds the row (duplicate), and the fleet names this store’s instance', async () => {
    const store = database.store()
    await openThread(database, store, 'thread-1')
    const fleet = store.fleet()
    expect(fleet.instance).toBe(store.instance)
    expect(fleet.channel).toBe(`${store.schema}_inbox`)
    expect(await fleet.accept(steerItem('item-1', 'thread-1'))).toEqual({ state: 'pending', duplicate: false })
    expect(await fleet.accept(steerItem('item-1', 'thread-1', 'a retry'))).toEqual({ state: 'pending', duplicate: true })
    const rows = await database.sql(`SELECT id, thread_id, kind, payload, state, accepted_by FROM "${store.schema}".inbox`)
    expect(rows).toEqual([
      {
        id: 'item-1',
        thread_id: 'thread-1',
        kind: 'steer',
        payload: { input: [{ type: 'text', text: 'steer item-1' }], expectedTurnId: 'turn-1', clientUserMessageId: null },
        state: 'pending',
        accepted_by: 'front-end-1',
      },
    ])
    await fleet.settle(['item-1'], 'dropped')
    expect(await fleet.accept(steerItem('item-1', 'thread-1'))).toEqual({ state: 'dropped', duplicate: true })
  })

  it('accept refuses a thread without a log (none, or a row only a lock made), and an id taken by another thread', async () => {
    const store = database.store()
    await openThread(database, store, 'thread-1')
    database.track(await store.lock('locked-only'))
    const fleet = store.fleet()
    await expect(fleet.accept(steerItem('item-1', 'no-such-thread'))).rejects.toMatchObject({
      name: 'KernelError',
      message: 'no thread no-such-thread',
    })
    await expect(fleet.accept(steerItem('item-1', 'locked-only'))).rejects.toMatchObject({ message: 'no thread locked-only' })
    await fleet.accept(steerItem('item-2', 'thread-1'))
    await expect(fleet.accept(steerItem('item-2', 'locked-only'))).rejects.toMatchObject({
      name: 'KernelError',
      message: 'inbox item item-2 was accepted for thread thread-1, not thread locked-only',
    })
    expect(await inboxStates(database, store.schema)).toEqual({ 'item-2': 'pending' })
  })

  it('claim gives the holder its open rows oldest first, once; release puts them back; settle and stateOf', async () => {
    const store = database.store()
    await openThread(database, store, 'thread-1')
    const fleet = store.fleet()
    const nul = steerItem('item-a', 'thread-1', 'a NUL \u0000 and a lone \ud800 surrogate')
    await fleet.accept(nul)
    await fleet.accept({ id: 'item-b', threadId: 'thread-1', kind: 'interrupt', payload: { turnId: 'turn-1' }, acceptedBy: 'front-end-2' })
    await fleet.accept(steerItem('item-c', 'thread-1'))
    const claimed = await fleet.claim('thread-1')
    expect(claimed).toEqual([
      nul,
      { id: 'item-b', threadId: 'thread-1', kind: 'interrupt', payload: { turnId: 'turn-1' }, acceptedBy: 'front-end-2' },
      steerItem('item-c', 'thread-1'),
    ])
    expect(await fleet.claim('thread-1')).toEqual([])
    expect(await fleet.stateOf('item-a')).toBe('claimed')

    await fleet.release(['item-a', 'item-c'])
    expect(await inboxStates(database, store.schema)).toEqual({ 'item-a': 'pending', 'item-b': 'claimed', 'item-c': 'pending' })
    expect((await fleet.claim('thread-1')).map((item) => item.id)).toEqual(['item-a', 'item-c'])

    await fleet.settle(['item-b'], 'recorded')
    await fleet.settle(['item-a', 'item-b'], 'dropped')
    expect(await fleet.stateOf('item-a')).toBe('dropped')
    expect(await fleet.stateOf('item-b')).toBe('recorded')
    expect(await fleet.stateOf('no-such-item')).toBeUndefined()
    await expect(fleet.settle(['item-c'], 'pending' as 'recorded')).rejects.toMatchObject({ name: 'KernelError' })
    // Settled rows are claimed no more.
    await fleet.release(['item-a', 'item-b'])
    expect(await fleet.claim('thread-1')).toEqual([])
  })

  it('the log settles rows as it writes: a message naming the item recorded, steering/dropped settled dropped, the first event naming one wins', async () => {
    const store = database.store()
    const { log } = await openThread(database, store, 'thread-1')
    const fleet = store.fleet()
    for (const id of ['by-message', 'by-drop', 'message-then-drop', 'claimed-then-dropped', 'untouched'])
      await fleet.accept(steerItem(id, 'thread-1'))
    await fleet.accept(steerItem('other-thread', 'thread-1'))
    await database.sql(`UPDATE "${store.schema}".inbox SET thread_id = 'thread-2' WHERE id = 'other-thread'`)
    expect((await fleet.claim('thread-1')).map((item) => item.id)).toContain('claimed-then-dropped')
    await fleet.release(['by-message', 'by-drop', 'message-then-drop', 'untouched'])

    log.append({ type: 'turn/start', turnId: 'turn-1' })
    const message = log.append(steerMessage('by message', 'by-message'))
    const first = log.append(steerMessage('recorded first', 'message-then-drop'))
    log.append(steerMessage('another thread’s', 'other-thread'))
    const dropped = log.append({
      type: 'steering/dropped',
      turnId: 'turn-1',
      transport: 'fleet',
      itemIds: ['by-drop', 'message-then-drop', 'claimed-then-dropped'],
      reason: 'session ended',
    })
    await log.sync()
    const rows = await database.sql<{ id: string; state: string; settled_seq: string | null }>(
      `SELECT id, state, settled_seq FROM "${store.schema}".inbox ORDER BY id`,
    )
    expect(rows).toEqual([
      { id: 'by-drop', state: 'dropped', settled_seq: String(dropped.seq) },
      { id: 'by-message', state: 'recorded', settled_seq: String(message.seq) },
      { id: 'claimed-then-dropped', state: 'dropped', settled_seq: String(dropped.seq) },
      { id: 'message-then-drop', state: 'recorded', settled_seq: String(first.seq) },
      { id: 'other-thread', state: 'pending', settled_seq: null },
      { id: 'untouched', state: 'pending', settled_seq: null },
    ])
    // A later batch naming a settled row leaves it as it is.
    log.append({ type: 'steering/dropped', transport: 'fleet', itemIds: ['by-message'], reason: 'late' })
    await log.sync()
    expect(await fleet.stateOf('by-message')).toBe('recorded')
  })

  it('migrates a version 1 database: its inbox rows get their order, and the fleet works on them', async () => {
    const schema = database.freshSchema()
    const old = database.store({ schema })
    await openThread(database, old, 'thread-1')
    // The tables as version 1 had them, with rows in them.
    await database.sql(`DROP INDEX "${schema}".inbox_open`)
    await database.sql(`ALTER TABLE "${schema}".inbox DROP COLUMN n, DROP COLUMN claimed_by`)
    await database.sql(`UPDATE "${schema}".schema_version SET version = 1`)
    for (const id of ['first', 'second'])
      await database.sql(
        `INSERT INTO "${schema}".inbox (id, thread_id, kind, payload, accepted_by) VALUES ($1, 'thread-1', 'interrupt', '{"turnId":"t"}', 'old')`,
        [id],
      )
    const store = database.store({ schema })
    await store.connect()
    expect(await database.sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 3 }])
    const columns = await database.sql<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'inbox' AND column_name IN ('n', 'claimed_by') ORDER BY 1`,
      [schema],
    )
    expect(columns.map((column) => column.column_name)).toEqual(['claimed_by', 'n'])
    // The thread's lease is the old store's: the old store's fleet (same database, now version 2) claims.
    expect((await old.fleet().claim('thread-1')).map((item) => item.id)).toEqual(['first', 'second'])
  })
})
