import type { SessionEventBody } from '@harness-kernel/kernel'
import pg from 'pg'
import { describe, expect, it, onTestFinished } from 'vitest'
import { presenceKey } from '../src/fleet/presence.js'
import type { PostgresSessionStore, RelayedAnswer, RelayedEnd, RelayedRequest } from '../src/index.js'
import { cutOffRole } from './support/cut-off-role.js'
import { openThread } from './support/fleet-threads.js'
import { type TestDatabase, useTestDatabase } from './support/test-database.js'
import { waitFor } from './support/wait-for.js'

const database = useTestDatabase()

/** A value this long keeps the poll out of a test: what happens comes from notifications and reconnects. */
const NO_POLL_MS = 600_000

/** What a front-end's watch was handed. */
class Watched {
  readonly asked: RelayedRequest[] = []
  readonly ended: [string, RelayedEnd][] = []
  readonly handlers = {
    onAsk: (request: RelayedRequest) => this.asked.push(request),
    onEnd: (id: string, end: RelayedEnd) => this.ended.push([id, end]),
  }

  askedIds(): string[] {
    return this.asked.map((request) => request.id)
  }
}

function request(id: string, front: PostgresSessionStore | string, params: unknown = { command: 'make test' }): RelayedRequest {
  const instance = typeof front === 'string' ? front : front.instance
  return {
    id,
    threadId: 'thread-1',
    turnId: 'turn-1',
    kind: 'approval',
    method: 'item/commandExecution/requestApproval',
    params,
    to: { instance, connection: 'connection-7' },
  }
}

/** An owner and a front-end in one schema, with thread-1 (the owner's) to ask about. */
async function ownerAndFrontEnd(options: { ownerLeaseMs?: number; ownerPollMs?: number; frontPollMs?: number } = {}) {
  const schema = database.freshSchema()
  const ownerStore = database.store({ schema, leaseMs: options.ownerLeaseMs ?? 15_000 })
  await openThread(database, ownerStore, 'thread-1')
  const frontStore = database.store({ schema })
  return {
    schema,
    ownerStore,
    frontStore,
    owner: ownerStore.fleet({ pollMs: options.ownerPollMs ?? NO_POLL_MS }),
    front: frontStore.fleet({ pollMs: options.frontPollMs ?? NO_POLL_MS }),
  }
}

async function askRow(schema: string, id: string) {
  const [row] = await database.sql(`SELECT * FROM "${schema}".asks WHERE id = $1`, [id])
  return row
}

const stateOf = async (schema: string, id: string) => (await askRow(schema, id))?.state as string | undefined

/** The owner's pool, counting its presence checks: numbered as they start, the highest answered kept. */
class PresenceChecks {
  readonly pool: pg.Pool
  started = 0
  #answered = 0

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url })
    this.pool.on('error', () => {})
    const query = this.pool.query.bind(this.pool) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>
    this.pool.query = (async (text: string, values?: unknown[]) => {
      if (typeof text !== 'string' || !text.includes('pg_try_advisory_xact_lock')) return query(text, values)
      const number = ++this.started
      const result = await query(text, values)
      this.#answered = Math.max(this.#answered, number)
      return result
    }) as typeof this.pool.query
  }

  /** Waits until a check that started after check `number` has answered. */
  oneAfter(number: number, what: string): Promise<true> {
    return waitFor(async () => this.#answered > number, what)
  }
}

/** Whether some session holds the instance's presence lock (a lock got here is released at the statement's end). */
async function present(db: TestDatabase, schema: string, instance: string): Promise<boolean> {
  const [row] = await db.sql<{ free: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS free', [
    presenceKey(schema, instance),
  ])
  return row?.free === false
}

/** The backend holding the instance's presence lock: its watch's listening connection. */
async function presencePid(schema: string, instance: string): Promise<number | undefined> {
  const [row] = await database.sql<{ pid: number }>(
    `SELECT pid FROM pg_locks, (SELECT hashtextextended($1, 0) AS k) AS key
     WHERE locktype = 'advisory' AND granted AND objsubid = 1
       AND classid::bigint = (key.k >> 32) & 4294967295 AND objid::bigint = key.k & 4294967295`,
    [presenceKey(schema, instance)],
  )
  return row?.pid
}

describe('relayed requests', () => {
  it('a round trip: the front-end’s watch gets the request once, the first answer settles the ask, endAsk reaches onEnd once', async () => {
    const { schema, ownerStore, frontStore, owner, front } = await ownerAndFrontEnd()
    const watched = new Watched()
    const watch = front.watchAsks(watched.handlers)
    await watch.ready
    expect(await present(database, schema, frontStore.instance)).toBe(true)

    const asked = request('ask-1', frontStore, { command: 'rm -rf build', note: 'a NUL \u0000 in it' })
    const answer = owner.ask(asked, new AbortController().signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')
    expect(watched.asked).toEqual([asked])
    expect(await askRow(schema, 'ask-1')).toMatchObject({
      thread_id: 'thread-1',
      turn_id: 'turn-1',
      kind: 'approval',
      method: 'item/commandExecution/requestApproval',
      asked_by: ownerStore.instance,
      to_instance: frontStore.instance,
      to_connection: 'connection-7',
      state: 'sent',
      answer: null,
      ended_at: null,
    })

    expect(await front.answer('ask-1', { result: { decision: 'accept' } })).toBe(true)
    expect(await front.answer('ask-1', { result: { decision: 'decline' } })).toBe(false)
    expect(await answer).toEqual({ result: { decision: 'accept' } })
    expect(await askRow(schema, 'ask-1')).toMatchObject({ state: 'answered', answer: { result: { decision: 'accept' } } })

    await owner.endAsk('ask-1', 'resolved')
    await waitFor(async () => watched.ended.length === 1, 'the end to reach the front-end')
    expect(watched.ended).toEqual([['ask-1', 'resolved']])
    expect(await askRow(schema, 'ask-1')).toMatchObject({ state: 'resolved', ended_at: expect.any(Date) })
    // A later request reaches the watch after any second end of ask-1 would have: there is none.
    const second = owner.ask(request('ask-2', frontStore), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 2, 'the second request')
    await owner.endAsk('ask-2', 'expired')
    await waitFor(async () => watched.ended.length === 2, 'the end of the second')
    expect(watched.ended).toEqual([
      ['ask-1', 'resolved'],
      ['ask-2', 'expired'],
    ])
    expect(await second).toEqual({ unanswered: 'relayed request ask-2 was ended (expired) before an answer came' })
    expect(watched.askedIds()).toEqual(['ask-1', 'ask-2'])
    await watch.close()
    expect(await present(database, schema, frontStore.instance)).toBe(false)
  })

  it('requests waiting for a watch reach it oldest first; a handler that throws stops nothing; an error answer passes through', async () => {
    const { schema, frontStore, owner, front } = await ownerAndFrontEnd()
    const answers: Promise<RelayedAnswer>[] = []
    for (const id of ['first', 'second', 'third']) {
      answers.push(owner.ask(request(id, frontStore), new AbortController().signal))
      await waitFor(async () => (await stateOf(schema, id)) === 'pending', `${id} to be written`)
    }
    const [first, second, third] = answers
    const watched = new Watched()
    const watch = front.watchAsks({
      onAsk: (asked) => {
        watched.handlers.onAsk(asked)
        if (asked.id === 'first') throw new Error('a handler that fails')
      },
      onEnd: (id, end) => {
        watched.handlers.onEnd(id, end)
        throw new Error('an end handler that fails')
      },
    })
    await watch.ready
    expect(watched.askedIds()).toEqual(['first', 'second', 'third'])

    expect(await front.answer('second', { error: { code: -32001, message: 'the user declined' } })).toBe(true)
    expect(await second).toEqual({ error: { code: -32001, message: 'the user declined' } })
    await owner.endAsk('first', 'expired')
    await waitFor(async () => watched.ended.length === 1, 'the first end')
    await owner.endAsk('third', 'resolved')
    await waitFor(async () => watched.ended.length === 2, 'the second end, after a handler threw')
    expect(watched.ended).toEqual([
      ['first', 'expired'],
      ['third', 'resolved'],
    ])
    expect(await first).toMatchObject({ unanswered: expect.stringContaining('expired') })
    expect(await third).toMatchObject({ unanswered: expect.stringContaining('resolved') })
    await expect(front.answer('third', { foo: 1 } as unknown as { result: unknown })).rejects.toMatchObject({ name: 'KernelError' })
  })

  it('abort settles the ask unanswered at once and leaves the row to endAsk; an aborted signal writes nothing; refusals', async () => {
    const { schema, frontStore, owner, front } = await ownerAndFrontEnd()
    const watched = new Watched()
    await front.watchAsks(watched.handlers).ready
    const stop = new AbortController()
    const answer = owner.ask(request('ask-1', frontStore), stop.signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')
    stop.abort()
    expect(await answer).toEqual({ unanswered: 'aborted: the owner stopped waiting' })
    expect(await stateOf(schema, 'ask-1')).toBe('sent')
    await owner.endAsk('ask-1', 'expired')
    expect(await stateOf(schema, 'ask-1')).toBe('expired')
    expect(await front.answer('ask-1', { result: 'too late' })).toBe(false)
    await waitFor(async () => watched.ended.length === 1, 'the end')

    expect(await owner.ask(request('never', frontStore), AbortSignal.abort())).toEqual({ unanswered: 'aborted: the owner stopped waiting' })
    expect(await askRow(schema, 'never')).toBeUndefined()
    await expect(owner.ask(request('ask-1', frontStore), new AbortController().signal)).rejects.toMatchObject({
      name: 'KernelError',
      message: 'relayed request ask-1 was asked before',
    })
    await expect(
      owner.ask({ ...request('elsewhere', frontStore), threadId: 'no-such-thread' }, new AbortController().signal),
    ).rejects.toMatchObject({
      name: 'KernelError',
      message: 'no thread no-such-thread',
    })
    expect(await front.answer('no-such-request', { result: 1 })).toBe(false)
    await expect(owner.endAsk('ask-1', 'answered' as RelayedEnd)).rejects.toMatchObject({ name: 'KernelError' })
  })

  it('endAsk ends a row pending, sent or answered; an end is final: never ended again, never answered', async () => {
    const { schema, frontStore, owner, front } = await ownerAndFrontEnd()
    const nobody = new AbortController()
    // Pending (no watch yet): resolved.
    const pending = owner.ask(request('pending', frontStore), nobody.signal)
    await waitFor(async () => (await stateOf(schema, 'pending')) === 'pending', 'the row')
    await owner.endAsk('pending', 'resolved')
    expect(await pending).toEqual({ unanswered: 'relayed request pending was ended (resolved) before an answer came' })
    const watched = new Watched()
    await front.watchAsks(watched.handlers).ready
    expect(watched.asked).toEqual([])

    const answered = owner.ask(request('answered', frontStore), nobody.signal)
    await waitFor(async () => watched.asked.length === 1, 'the request')
    await front.answer('answered', { result: 'yes' })
    expect(await answered).toEqual({ result: 'yes' })
    await owner.endAsk('answered', 'expired')
    expect(await stateOf(schema, 'answered')).toBe('expired')

    for (const [id, end] of [
      ['pending', 'expired'],
      ['answered', 'resolved'],
    ] as const) {
      await owner.endAsk(id, end)
      expect(await front.answer(id, { result: 'late' })).toBe(false)
    }
    expect(await stateOf(schema, 'pending')).toBe('resolved')
    expect(await askRow(schema, 'answered')).toMatchObject({ state: 'expired', answer: { result: 'yes' } })
    await owner.endAsk('no-such-request', 'resolved')
  })

  it('a front-end never present: unanswered, naming it, once its presence has been missing for longer than the lease; the row expired for good', async () => {
    const LEASE_MS = 400
    const { schema, owner } = await ownerAndFrontEnd({ ownerLeaseMs: LEASE_MS, ownerPollMs: 30 })
    const started = Date.now()
    const answer = await owner.ask(request('ask-1', 'front-end-nobody'), new AbortController().signal)
    expect(Date.now() - started).toBeGreaterThan(LEASE_MS)
    expect(answer).toEqual({
      unanswered: 'front-end front-end-nobody is gone: its presence has been missing for longer than the lease (400 ms)',
    })
    expect(await stateOf(schema, 'ask-1')).toBe('expired')
    await owner.endAsk('ask-1', 'resolved')
    expect(await stateOf(schema, 'ask-1')).toBe('expired')
  })

  it('a front-end whose fleet closes while asked is gone after the lease: unanswered, the row expired', async () => {
    const { schema, frontStore, owner, front } = await ownerAndFrontEnd({ ownerLeaseMs: 400, ownerPollMs: 30 })
    const watched = new Watched()
    await front.watchAsks(watched.handlers).ready
    const answer = owner.ask(request('ask-1', frontStore), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')
    await front.close()
    expect(await answer).toEqual({ unanswered: expect.stringContaining(`front-end ${frontStore.instance} is gone`) })
    expect(await stateOf(schema, 'ask-1')).toBe('expired')
    expect(await front.answer('ask-1', { result: 'late' })).toBe(false)
  })

  it('a front-end cut off the database (its listener terminated, not coming back) is gone after the lease; back, it hears the end', async () => {
    const { schema, ownerStore, owner } = await ownerAndFrontEnd({ ownerLeaseMs: 500, ownerPollMs: 30 })
    const role = await cutOffRole(database, ownerStore.schema)
    const frontStore = database.store({ schema, url: role.url })
    const watched = new Watched()
    await frontStore.fleet({ pollMs: 50 }).watchAsks(watched.handlers).ready
    const answer = owner.ask(request('ask-1', frontStore), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')

    await role.cutOff()
    expect(await answer).toEqual({ unanswered: expect.stringContaining(`front-end ${frontStore.instance} is gone`) })
    expect(await stateOf(schema, 'ask-1')).toBe('expired')
    // The end's notification went out while it was away: the reconnect, or the poll, finds it.
    await role.letBack()
    await waitFor(async () => watched.ended.length === 1, 'the end to reach the front-end once back')
    expect(watched.ended).toEqual([['ask-1', 'expired']])
    await waitFor(() => present(database, schema, frontStore.instance), 'the front-end to be present again')
  })

  it('a front-end whose listener is terminated again and again, each time back within the lease, stays present: the ask is answered', async () => {
    // Long beside a reconnect (100 ms and a connect), so a loaded machine's slower reconnects stay well within it.
    const LEASE_MS = 2_000
    const checks = new PresenceChecks(database.server.url)
    // After the stores' own closing (afterEach): the owner's store does not end a pool it was given.
    onTestFinished(() => checks.pool.end())
    const schema = database.freshSchema()
    const ownerStore = database.store({ schema, leaseMs: LEASE_MS, pool: checks.pool })
    await openThread(database, ownerStore, 'thread-1')
    const frontStore = database.store({ schema })
    const owner = ownerStore.fleet({ pollMs: 20 })
    const front = frontStore.fleet({ pollMs: NO_POLL_MS })
    const watched = new Watched()
    await front.watchAsks(watched.handlers).ready
    const answer = owner.ask(request('ask-1', frontStore), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')
    // Absent for two leases in all, never for one in a row: the owner must not add the absences up. Each time the
    // listener is back, the owner checks once before it goes again (on a loaded machine its poll could miss the window).
    const started = Date.now()
    let pid = await presencePid(schema, frontStore.instance)
    let terminations = 0
    while (Date.now() - started < 2 * LEASE_MS) {
      await database.sql('SELECT pg_terminate_backend($1)', [pid])
      terminations++
      const old = pid
      pid = await waitFor(async () => {
        const now = await presencePid(schema, frontStore.instance)
        return now !== undefined && now !== old && now
      }, 'the listener to be back, present')
      await checks.oneAfter(checks.started, 'the owner to check presence while the listener is back')
    }
    expect(terminations).toBeGreaterThan(1)
    expect(await stateOf(schema, 'ask-1')).toBe('sent')
    expect(await front.answer('ask-1', { result: 'still here' })).toBe(true)
    expect(await answer).toEqual({ result: 'still here' })
  })

  it('a request asked while the front-end’s listener is down reaches it once it is back, once', async () => {
    const { schema, ownerStore, owner } = await ownerAndFrontEnd()
    const role = await cutOffRole(database, ownerStore.schema)
    const frontStore = database.store({ schema, url: role.url })
    const watched = new Watched()
    // No poll: it is the reconnect that finds the request.
    await frontStore.fleet({ pollMs: NO_POLL_MS }).watchAsks(watched.handlers).ready
    await role.cutOff()
    await waitFor(async () => !(await present(database, schema, frontStore.instance)), 'the front-end to be away')
    const first = owner.ask(request('while-away', frontStore), new AbortController().signal)
    await waitFor(async () => (await stateOf(schema, 'while-away')) === 'pending', 'the row')
    await role.letBack()
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end once back')
    const second = owner.ask(request('after', frontStore), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 2, 'the next request')
    expect(watched.askedIds()).toEqual(['while-away', 'after'])
    const front = frontStore.fleet()
    await front.answer('while-away', { result: 1 })
    await front.answer('after', { result: 2 })
    expect([await first, await second]).toEqual([{ result: 1 }, { result: 2 }])
    expect(watched.askedIds()).toEqual(['while-away', 'after'])
  })

  it('one watch of asks per store; the fleet’s close ends it (presence gone) and settles its waits unanswered', async () => {
    const { schema, ownerStore, frontStore, owner, front } = await ownerAndFrontEnd()
    const watch = front.watchAsks(new Watched().handlers)
    expect(() => front.watchAsks(new Watched().handlers)).toThrow(expect.objectContaining({ name: 'KernelError' }))
    expect(() => frontStore.fleet().watchAsks(new Watched().handlers)).toThrow(expect.objectContaining({ name: 'KernelError' }))
    await watch.ready
    await watch.close()
    const again = frontStore.fleet().watchAsks(new Watched().handlers)
    await again.ready
    expect(await present(database, schema, frontStore.instance)).toBe(true)

    const answer = owner.ask(request('ask-1', frontStore), new AbortController().signal)
    await waitFor(async () => (await stateOf(schema, 'ask-1')) === 'sent', 'the request to be sent')
    await ownerStore.close()
    expect(await answer).toEqual({ unanswered: 'the fleet was closed' })
    expect(await owner.ask(request('ask-2', frontStore), new AbortController().signal)).toEqual({ unanswered: 'the fleet was closed' })
    await frontStore.close()
    expect(await present(database, schema, frontStore.instance)).toBe(false)
  })

  it('openTurn: the last turn/start without a turn/end of that turn, read from the log as committed', async () => {
    const store = database.store()
    const { log } = await openThread(database, store, 'thread-1')
    const fleet = store.fleet()
    const turn = async (...bodies: SessionEventBody[]) => {
      for (const body of bodies) log.append(body)
      await log.sync()
      return fleet.openTurn('thread-1')
    }
    expect(await fleet.openTurn('thread-1')).toBeUndefined()
    await expect(fleet.openTurn('no-such-thread')).rejects.toThrow('no thread no-such-thread')
    expect(await turn({ type: 'turn/start', turnId: 'turn-1' }, { type: 'step/start', turnId: 'turn-1', step: 1 })).toBe('turn-1')
    // Stored encoded (a NUL): its turnId is not in the clear.
    expect(await turn({ type: 'turn/end', turnId: 'turn-1', status: 'failed', error: 'a NUL \u0000 in it' })).toBeUndefined()
    expect(await turn({ type: 'notice', level: 'info', text: 'between turns', source: 'test' })).toBeUndefined()
    expect(await turn({ type: 'turn/start', turnId: 'turn-2' }, { type: 'turn/end', turnId: 'turn-1', status: 'completed' })).toBe('turn-2')
    expect(await turn({ type: 'turn/end', turnId: 'turn-2', status: 'interrupted' })).toBeUndefined()
  })

  it('migrates a version 2 database: asks is added, and requests are relayed on it', async () => {
    const schema = database.freshSchema()
    const old = database.store({ schema })
    await openThread(database, old, 'thread-1')
    // The tables as version 2 had them.
    await database.sql(`DROP TABLE "${schema}".asks`)
    await database.sql(`UPDATE "${schema}".schema_version SET version = 2`)
    const owner = database.store({ schema })
    await owner.connect()
    expect(await database.sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 3 }])
    const indexes = await database.sql<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'asks' ORDER BY 1`,
      [schema],
    )
    expect(indexes.map((index) => index.indexname)).toEqual(['asks_open', 'asks_pkey'])
    const watched = new Watched()
    const front = database.store({ schema })
    await front.fleet().watchAsks(watched.handlers).ready
    const answer = owner.fleet().ask(request('ask-1', front), new AbortController().signal)
    await waitFor(async () => watched.asked.length === 1, 'the request to reach the front-end')
    await front.fleet().answer('ask-1', { result: 'ok' })
    expect(await answer).toEqual({ result: 'ok' })
  })
})
